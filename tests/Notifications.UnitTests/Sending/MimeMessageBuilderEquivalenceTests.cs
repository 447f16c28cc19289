using System.Globalization;
using System.Text;
using MimeKit;
using MimeKit.Text;
using MimeKit.Utils;
using Notifications.Consumer.Channels.Email;

namespace Notifications.UnitTests.Sending;

/// <summary>
/// The builder's short cuts (raw headers, the body's transfer encoding chosen without MimeKit's scan) write
/// the very bytes MimeKit's own path writes: each email of a corpus, built both ways, prepared for each
/// server constraint, is compared byte for byte. Subjects MimeKit's own path spoils (a literal encoded-word,
/// blanks at either end) are not MimeKit's bytes on purpose: see <see cref="MimeMessageBuilderSubjectTests"/>.
/// </summary>
public sealed class MimeMessageBuilderEquivalenceTests
{
    private const string From = "Notifications <notifications@example.test>";
    private const string Domain = "notifications.local";
    private static readonly DateTimeOffset CreatedAt = new(2026, 11, 23, 13, 4, 5, 678, TimeSpan.Zero);
    private static readonly FormatOptions Wire = new() { NewLineFormat = NewLineFormat.Dos, EnsureNewLine = true };

    public static TheoryData<string, string> Corpus => new()
    {
        { "Your order #123456 has shipped", "Hello,\n\norder 123456 is on its way.\n" },
        { "Hello", "Body." },
        { new string('s', 69), "a\r\nb\rc\nd" },
        { new string('s', 70), "no final break" },
        { "a  b  c", "From the team\nFrom: not a marker\n>From quoted\n" },
        { "From here", "line\nFrom here on\n" },
        { "100% off! {[~]} x=y?z", new string('x', 998) + "\n" + new string('y', 999) + "\n" },
        { "Dots: a=b? c", ".leading dot\n..two\n.\n" },
        { "spaces  inside  only", "trailing space \n" },
        { "Tab in the body", "tab\there\n" },
        { "Grüße aus Köln", "Grüße,\n\nIhre Bestellung ist unterwegs. ✓\n" },
        { "😀 emoji", string.Concat(Enumerable.Repeat("😀", 300)) },
        { "Привет", "Привет, Γειά σου, 你好, مرحبا 😀\n" + new string('x', 5000) + "\nend\n" },
        { "nul", "a\0b\n" },
        { "mostly ascii", "abc" + new string('é', 2) + new string('a', 50) },
        { "html", "<p>Grüße</p>" },
    };

    [Theory]
    [MemberData(nameof(Corpus))]
    public void Build_EveryConstraint_SameBytesAsMimeKitsOwnPath(string subject, string body)
    {
        var builder = new MimeMessageBuilder(From, Domain);
        var to = new MailboxAddress(string.Empty, "user@example.test");
        foreach (bool html in (bool[])[false, true])
        {
            var email = new EmailMessage(42, "user@example.test", subject, body, html, CreatedAt);
            foreach (var constraint in (EncodingConstraint[])[EncodingConstraint.SevenBit, EncodingConstraint.EightBit, EncodingConstraint.None])
            {
                foreach (int maxLine in (int[])[78, 998])
                {
                    using var ours = builder.Build(email, to);
                    using var reference = ReferenceBuild(email, to);
                    Assert.Equal(Write(reference, constraint, maxLine), Write(ours, constraint, maxLine));
                }
            }
        }
    }

    [Theory]
    [InlineData("Hello", true)]
    [InlineData("Your order #123456 has shipped", true)]
    [InlineData(" leading", false)]
    [InlineData("trailing ", false)]
    [InlineData("=?utf-8?q?x?=", false)]
    [InlineData("tab\there", false)]
    [InlineData("Grüße", false)]
    [InlineData("", false)]
    public void IsRawSubject_OnlyWhatMimeKitWritesUnchanged(string subject, bool raw)
    {
        Assert.Equal(raw, MimeMessageBuilder.IsRawSubject(subject));
    }

    // The builder as it was before its short cuts: every header and the body through MimeKit's encoders.
    private static MimeMessage ReferenceBuild(EmailMessage email, MailboxAddress to)
    {
        var headers = new List<Header>
        {
            new(HeaderId.Date, DateUtils.FormatDate(email.CreatedAt.ToUniversalTime())),
            new(Encoding.UTF8, HeaderId.From, From),
            new(Encoding.UTF8, HeaderId.Subject, email.Subject),
            new(HeaderId.MessageId, string.Create(CultureInfo.InvariantCulture, $"<{email.NotificationId}.{email.CreatedAt.ToUnixTimeMilliseconds()}@{Domain}>")),
            new("X-Notification-Id", email.NotificationId.ToString(CultureInfo.InvariantCulture)),
        };
        var body = new TextPart(email.IsHtml ? TextFormat.Html : TextFormat.Plain);
        body.SetText(Encoding.UTF8, MimeMessageBuilder.NormalizeLineBreaks(email.Body));
        var message = new MimeMessage(headers) { Body = body };
        message.To.Add(to);
        return message;
    }

    private static string Write(MimeMessage message, EncodingConstraint constraint, int maxLine)
    {
        message.Prepare(constraint, maxLine);
        using var output = new MemoryStream();
        message.WriteTo(Wire, output);
        return Encoding.UTF8.GetString(output.ToArray());
    }
}
