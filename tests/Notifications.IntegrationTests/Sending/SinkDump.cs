using System.Text;
using System.Text.RegularExpressions;
using MimeKit;
using MimeKit.Utils;

namespace Notifications.IntegrationTests.Sending;

/// <summary>One smtp-sink dump file read back: unfolded headers (smtp-sink's and the message's) and the body.</summary>
internal sealed partial class SinkDump
{
    private SinkDump(IReadOnlyDictionary<string, string> headers, string body)
    {
        Headers = headers;
        Body = body;
    }

    /// <summary>Header values by name, unfolded; the first occurrence wins.</summary>
    public IReadOnlyDictionary<string, string> Headers { get; }

    /// <summary>The body as received, LF line ends, without the dump's closing empty line.</summary>
    public string Body { get; }

    public static SinkDump Read(string file)
    {
        string text = File.ReadAllText(file, Encoding.UTF8);
        int split = text.IndexOf("\n\n", StringComparison.Ordinal);
        string headerText = text[..split];
        string body = text[(split + 2)..];

        // The dump ends every transaction with an empty line of its own.
        body = body.EndsWith('\n') ? body[..^1] : body;
        var headers = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
        string unfolded = headerText.Replace("\n ", " ", StringComparison.Ordinal).Replace("\n\t", "\t", StringComparison.Ordinal);
        foreach (string line in unfolded.Split('\n'))
        {
            int colon = line.IndexOf(':', StringComparison.Ordinal);
            headers.TryAdd(line[..colon], line[(colon + 1)..].TrimStart());
        }

        return new SinkDump(headers, body);
    }

    /// <summary>
    /// Parses a dump file with MimeKit, without the empty line smtp-sink appends to every transaction
    /// (it would read as one more line of the body). smtp-sink's own headers come first; MimeKit keeps them.
    /// </summary>
    public static MimeMessage LoadMessage(string file)
    {
        byte[] bytes = File.ReadAllBytes(file);
        int length = bytes.Length > 0 && bytes[^1] == '\n' ? bytes.Length - 1 : bytes.Length;
        return MimeMessage.Load(new MemoryStream(bytes, 0, length));
    }

    /// <summary>
    /// The Subject as a reader that decodes RFC 2047 faithfully sees it: the field unfolded (RFC 5322 2.2.3,
    /// each line break before a blank removed), the blanks that frame it outside any encoded-word (after the
    /// colon, before the line end) dropped, the rest decoded by MimeKit's RFC 2047 decoder. Not
    /// <see cref="MimeMessage.Subject"/>: it also trims whitespace that came out of an encoded-word, so it
    /// cannot tell a preserved leading or trailing space from a lost one.
    /// </summary>
    public static string DecodedSubject(MimeMessage message)
    {
        ArgumentNullException.ThrowIfNull(message);
        byte[] raw = message.Headers[message.Headers.IndexOf(HeaderId.Subject)].RawValue;
        string unfolded = Encoding.UTF8.GetString(raw).Replace("\r\n", "", StringComparison.Ordinal)
            .Replace("\n", "", StringComparison.Ordinal).Trim(' ', '\t');
        return Rfc2047.DecodeText(Encoding.UTF8.GetBytes(unfolded));
    }

    /// <summary>Decodes RFC 2047 UTF-8 encoded-words; the space between two adjacent words is dropped.</summary>
    public static string DecodeEncodedWords(string value)
    {
        string joined = AdjacentWords().Replace(value, "?==?");
        return EncodedWord().Replace(joined, match =>
        {
            string payload = match.Groups[2].Value;
            byte[] bytes = match.Groups[1].Value.Equals("B", StringComparison.OrdinalIgnoreCase)
                ? Convert.FromBase64String(payload)
                : DecodeQuotedPrintableBytes(payload.Replace('_', ' '));
            return Encoding.UTF8.GetString(bytes);
        });
    }

    /// <summary>Decodes a quoted-printable body (LF line ends as the dump has them).</summary>
    public static string DecodeQuotedPrintable(string body) =>
        Encoding.UTF8.GetString(DecodeQuotedPrintableBytes(body.Replace("=\n", "", StringComparison.Ordinal)));

    private static byte[] DecodeQuotedPrintableBytes(string text)
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
                bytes.Add((byte)text[i]);
            }
        }

        return bytes.ToArray();
    }

    [GeneratedRegex(@"\?=\s+=\?")]
    private static partial Regex AdjacentWords();

    [GeneratedRegex(@"=\?utf-8\?([QqBb])\?([^?]*)\?=", RegexOptions.IgnoreCase)]
    private static partial Regex EncodedWord();
}
