using System.Text;

namespace Notifications.Consumer.Channels.Email;

/// <summary>
/// Writes a subject that MimeKit's RFC 2047 encoder would spoil as UTF-8 "B" encoded-words from end to end.
/// MimeKit leaves an ASCII word as it is, even one that reads as an encoded-word ("=?utf-8?B?SGk=?="),
/// which every reader then decodes (RFC 2047 5 asks for such text to be encoded), and it drops the blanks at
/// either end of the value, as every reader drops those outside an encoded-word. It has no switch to encode
/// regardless (and its public Q encoder is obsolete), so the words are cut here, at character boundaries
/// (RFC 2047 5), each payload base64 by the runtime. Adjacent encoded-words are joined by folding white
/// space only, which readers drop (RFC 2047 6.2), so the decoded subject is the app's, blanks and all.
/// </summary>
internal static class SubjectEncoder
{
    private const string Prefix = "=?utf-8?b?";

    // RFC 2047 2: a line that holds an encoded-word has at most 76 characters; the first starts "Subject: ".
    // Base64 takes 3 bytes to 4 characters, so a word carries at most 39 bytes of UTF-8.
    private const int MaxBytes = (76 - 9 - 12) / 4 * 3;

    /// <summary>
    /// Whether <paramref name="subject"/> must be encoded whole: it holds "=?" (the start of what a reader
    /// would take for an encoded-word, however glued to its neighbours) or begins or ends with white space.
    /// </summary>
    public static bool IsNeeded(string subject) =>
        subject.Length > 0
        && (char.IsWhiteSpace(subject[0]) || char.IsWhiteSpace(subject[^1]) || subject.Contains("=?", StringComparison.Ordinal));

    /// <summary>The field's value as it goes on the wire: encoded-words, folded with LF and a space between them.</summary>
    public static string Encode(string subject)
    {
        byte[] text = Encoding.UTF8.GetBytes(subject);
        var value = new StringBuilder((text.Length / MaxBytes + 1) * (76 - 9));
        int start = 0;
        int end = 0;
        while (end < text.Length)
        {
            Rune.DecodeFromUtf8(text.AsSpan(end), out _, out int length);
            if (end + length - start > MaxBytes)
            {
                AppendWord(value, text, start, end);
                start = end;
            }

            end += length;
        }

        AppendWord(value, text, start, end);
        return value.ToString();
    }

    private static void AppendWord(StringBuilder value, byte[] text, int start, int end) =>
        value.Append(value.Length == 0 ? "" : "\n ").Append(Prefix).Append(Convert.ToBase64String(text, start, end - start)).Append("?=");
}
