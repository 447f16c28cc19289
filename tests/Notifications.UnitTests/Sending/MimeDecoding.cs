using System.Text;
using System.Text.RegularExpressions;

namespace Notifications.UnitTests.Sending;

/// <summary>Independent decoders for what the writers produce, so tests check round trips, not only strings.</summary>
internal static partial class MimeDecoding
{
    private static readonly UTF8Encoding StrictUtf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    /// <summary>Unfolds a header field and decodes its encoded-words; each word must hold valid UTF-8 on its own.</summary>
    public static string DecodeHeaderValue(string field)
    {
        string unfolded = field.Replace("\r\n", "", StringComparison.Ordinal);
        string value = unfolded[(unfolded.IndexOf(':', StringComparison.Ordinal) + 1)..];
        value = value.StartsWith(' ') ? value[1..] : value;
        string joined = AdjacentWords().Replace(value, "?==?");
        return EncodedWord().Replace(joined, match =>
        {
            string payload = match.Groups[2].Value;
            byte[] bytes = match.Groups[1].Value == "B"
                ? Convert.FromBase64String(payload)
                : HexBytes(payload.Replace('_', ' '));
            return StrictUtf8.GetString(bytes);
        });
    }

    /// <summary>Decodes a quoted-printable body with CRLF line ends.</summary>
    public static string DecodeQuotedPrintable(string encoded) =>
        StrictUtf8.GetString(HexBytes(encoded.Replace("=\r\n", "", StringComparison.Ordinal)));

    public static IReadOnlyList<string> EncodedWords(string field) =>
        EncodedWord().Matches(field).Select(m => m.Value).ToList();

    private static byte[] HexBytes(string text)
    {
        var bytes = new List<byte>(text.Length);
        for (int i = 0; i < text.Length; i++)
        {
            if (text[i] == '=')
            {
                bytes.Add(Convert.ToByte(text.Substring(i + 1, 2), 16));
                i += 2;
            }
            else
            {
                bytes.Add(checked((byte)text[i]));
            }
        }

        return bytes.ToArray();
    }

    [GeneratedRegex(@"\?=\s+=\?")]
    private static partial Regex AdjacentWords();

    [GeneratedRegex(@"=\?utf-8\?([QB])\?([^?]*)\?=")]
    private static partial Regex EncodedWord();
}
