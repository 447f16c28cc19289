using MimeKit;
using Notifications.Consumer.Channels.Email;
using Notifications.Consumer.Channels;

namespace Notifications.UnitTests.Sending;

/// <summary>Reply-To, Cc, Bcc and custom headers as the consumer builds them into the message and the envelope.</summary>
public sealed class HeaderFieldsTests
{
    private static readonly FormatOptions Wire = new() { NewLineFormat = NewLineFormat.Dos, EnsureNewLine = true };
    private readonly MimeMessageBuilder builder = new("notifications@example.test", "notifications.local");

    private static EmailMessage Email() => new(42, "user@example.test", "Hello", "Body.\n", false, DateTimeOffset.UnixEpoch)
    {
        ReplyTo = "Support <help@example.test>",
        Cc = "\"Doe, Jo\" <jo@example.test>, boss@example.test",
        Bcc = "audit@example.test, USER@example.test",
        Headers = """{"X-Campaign":"spring sale","X-Tag":"Grüße"}""",
    };

    [Fact]
    public void Build_WithFields_ReplyToCcAndCustomHeadersButNoBcc()
    {
        var to = new MailboxAddress(string.Empty, "user@example.test");
        using MimeMessage message = builder.Build(Email(), to, HeaderFields.Resolve(Email(), serverOffersSmtpUtf8: false));
        string headers = Headers(message);

        Assert.Contains("\r\nReply-To: Support <help@example.test>\r\n", headers, StringComparison.Ordinal);
        Assert.Contains("\r\nCc: \"Doe, Jo\" <jo@example.test>, boss@example.test\r\n", headers, StringComparison.Ordinal);
        Assert.Contains("\r\nX-Campaign: spring sale\r\n", headers, StringComparison.Ordinal);
        Assert.Contains("\r\nX-Tag: =?utf-8?", headers, StringComparison.Ordinal);
        Assert.Equal("Grüße", message.Headers["X-Tag"]);
        Assert.DoesNotContain("Bcc", headers, StringComparison.OrdinalIgnoreCase);
        Assert.DoesNotContain("audit@", headers, StringComparison.Ordinal);
    }

    [Fact]
    public void Recipients_ToCcAndBcc_EachAddressOnceToFirst()
    {
        var to = new MailboxAddress(string.Empty, "user@example.test");

        var recipients = HeaderFields.Resolve(Email(), serverOffersSmtpUtf8: false).Recipients(to);

        Assert.Equal(["user@example.test", "jo@example.test", "boss@example.test", "audit@example.test"], recipients.Select(r => r.Address));
    }

    [Fact]
    public void Resolve_NoFields_NoneWithTheRecipientAlone()
    {
        var fields = HeaderFields.Resolve(new EmailMessage(1, "a@example.test", "s", "b", false, DateTimeOffset.UnixEpoch), false);
        var to = new MailboxAddress(string.Empty, "a@example.test");

        Assert.Same(HeaderFields.None, fields);
        Assert.Equal([to], fields.Recipients(to));
    }

    [Theory]
    [InlineData("""{"Reply-To":"x@example.test"}""", null)]
    [InlineData("""{"X-Tag":"a\r\nBcc: spy@example.test"}""", null)]
    [InlineData(null, "jürgen@example.test")]
    public void Resolve_Unsendable_PermanentWithReason(string? headers, string? cc)
    {
        var email = new EmailMessage(1, "a@example.test", "s", "b", false, DateTimeOffset.UnixEpoch) { Headers = headers, Cc = cc };

        var e = Assert.Throws<SmtpSendException>(() => HeaderFields.Resolve(email, serverOffersSmtpUtf8: false));

        Assert.Equal(SendFailureKind.Permanent, e.Kind);
    }

    [Fact]
    public void Resolve_NonAsciiLocalPartWithSmtpUtf8_NeedsSmtpUtf8()
    {
        var email = new EmailMessage(1, "a@example.test", "s", "b", false, DateTimeOffset.UnixEpoch) { Bcc = "jürgen@example.test" };

        Assert.True(HeaderFields.Resolve(email, serverOffersSmtpUtf8: true).NeedsSmtpUtf8);
    }

    // Every printable ASCII character but the colon is ftext (RFC 5322 3.6.8): what the validator accepts, MimeKit writes.
    [Theory]
    [InlineData("X-A!#$%&'*+.^_`|~")]
    [InlineData("X(1)[2]{3}<4>\"5\",@;=?/")]
    public void Build_AnyFieldNameTheValidatorAccepts_WrittenAsGiven(string name)
    {
        var email = new EmailMessage(1, "a@example.test", "s", "b", false, DateTimeOffset.UnixEpoch)
        {
            Headers = System.Text.Json.JsonSerializer.Serialize(new Dictionary<string, string> { [name] = "v" }),
        };
        using MimeMessage message = builder.Build(email, new MailboxAddress(string.Empty, "a@example.test"), HeaderFields.Resolve(email, false));

        Assert.Contains($"\r\n{name}: v\r\n", Headers(message), StringComparison.Ordinal);
    }

    private static string Headers(MimeMessage message)
    {
        using var stream = new MemoryStream();
        message.WriteTo(Wire, stream);
        string raw = System.Text.Encoding.UTF8.GetString(stream.ToArray());
        return "\r\n" + raw[..(raw.IndexOf("\r\n\r\n", StringComparison.Ordinal) + 2)];
    }
}
