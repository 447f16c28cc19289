using System.Text;
using MimeKit;
using MimeKit.Utils;
using Notifications.Consumer.Channels.Email;

namespace Notifications.UnitTests.Sending;

/// <summary>
/// Subjects MimeKit's own encoder spoils, written by the builder and read back: a literal encoded-word must
/// not be decoded by the reader (RFC 2047 5), and blanks at either end must survive. "Read back" is the
/// raw field unfolded, the blanks framing it outside any encoded-word dropped, and MimeKit's RFC 2047 decoder
/// (not <see cref="MimeMessage.Subject"/>, which trims decoded whitespace too).
/// </summary>
public sealed class MimeMessageBuilderSubjectTests
{
    private static readonly FormatOptions Wire = new() { NewLineFormat = NewLineFormat.Dos, EnsureNewLine = true };
    private readonly MimeMessageBuilder builder = new("notifications@example.test", "notifications.local");

    public static TheoryData<string> Tricky => new()
    {
        "Literal =?utf-8?B?SGk=?= text",
        "=?utf-8?q?a_whole_word?=",
        "Literal =?utf-8?B?SGk=?=",
        "glued=?utf-8?B?SGk=?=word",
        "Grüße =?iso-8859-1?q?Gr=FC=DFe?= aus Köln",
        "Trailing spaces   ",
        "   leading spaces",
        "    ",
        " ",
        " Grüße aus Köln ",
        "\u3000全角の空白\u3000",
        "\u00A0non-breaking\u00A0",
        new string('s', 997) + " ",
        " " + new string('s', 997),
        string.Concat(Enumerable.Repeat("long subject ", 76)) + "end ",
        " " + string.Concat(Enumerable.Repeat("😀", 997)),
        " " + string.Concat(Enumerable.Repeat("a😀", 498)) + " ",
        "=?" + string.Concat(Enumerable.Repeat("日本語", 332)),
    };

    [Theory]
    [MemberData(nameof(Tricky))]
    public void Build_TrickySubject_ReadsBackIdentical(string subject)
    {
        foreach (var constraint in (EncodingConstraint[])[EncodingConstraint.SevenBit, EncodingConstraint.EightBit])
        {
            byte[] raw = Write(subject, constraint);
            using MimeMessage read = MimeMessage.Load(new MemoryStream(raw));

            Assert.Equal(subject, DecodedSubject(read));
            Assert.Equal(subject.Trim(), read.Subject);
        }
    }

    [Theory]
    [MemberData(nameof(Tricky))]
    public void Build_TrickySubject_EncodedWordsWithinRfc2047Limits(string subject)
    {
        string raw = Encoding.ASCII.GetString(Write(subject, EncodingConstraint.SevenBit));
        string[] lines = SubjectLines(raw);

        // RFC 2047 2: an encoded-word is at most 75 characters, a line holding one at most 76.
        Assert.All(lines, line => Assert.InRange(line.Length, 1, 76));
        Assert.All(lines.SelectMany(line => line.Split(' ', StringSplitOptions.RemoveEmptyEntries)).Skip(1),
            word => Assert.Matches(@"^=\?utf-8\?[bq]\?[^?\s]+\?=$", word));
        Assert.All(lines, line => Assert.DoesNotContain("SGk=?=", line, StringComparison.Ordinal));
    }

    [Theory]
    [InlineData("Literal =?utf-8?B?SGk=?= text", "Subject: =?utf-8?b?TGl0ZXJhbCA9P3V0Zi04P0I/U0drPT89IHRleHQ=?=")]
    [InlineData("Trailing ", "Subject: =?utf-8?b?VHJhaWxpbmcg?=")]
    [InlineData(" ", "Subject: =?utf-8?b?IA==?=")]
    public void Build_SubjectToProtect_OneEncodedWordOnTheWire(string subject, string line)
    {
        string raw = Encoding.ASCII.GetString(Write(subject, EncodingConstraint.EightBit));

        Assert.Equal([line], SubjectLines(raw));
    }

    private byte[] Write(string subject, EncodingConstraint constraint)
    {
        var email = new EmailMessage(42, "user@example.test", subject, "Body.\n", false, DateTimeOffset.UnixEpoch);
        using MimeMessage message = builder.Build(email, new MailboxAddress(string.Empty, email.To));
        message.Prepare(constraint, 998);
        using var output = new MemoryStream();
        message.WriteTo(Wire, output);
        return output.ToArray();
    }

    // The Subject field's lines as written, "Subject:" and its continuation lines.
    private static string[] SubjectLines(string raw)
    {
        string[] lines = raw.Split("\r\n");
        int first = Array.FindIndex(lines, line => line.StartsWith("Subject:", StringComparison.Ordinal));
        return [.. lines.Skip(first).Take(1).Concat(lines.Skip(first + 1).TakeWhile(line => line.StartsWith(' ')))];
    }

    private static string DecodedSubject(MimeMessage message)
    {
        byte[] raw = message.Headers[message.Headers.IndexOf(HeaderId.Subject)].RawValue;
        string unfolded = Encoding.UTF8.GetString(raw).Replace("\r\n", "", StringComparison.Ordinal)
            .Replace("\n", "", StringComparison.Ordinal).Trim(' ', '\t');
        return Rfc2047.DecodeText(Encoding.UTF8.GetBytes(unfolded));
    }
}
