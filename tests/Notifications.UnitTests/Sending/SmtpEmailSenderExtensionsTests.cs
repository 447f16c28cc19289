using Microsoft.Extensions.Logging.Abstractions;
using Notifications.Consumer.Channels.Email;
using Notifications.Consumer.Channels;

namespace Notifications.UnitTests.Sending;

/// <summary>The sender against a scripted server offering what smtp-sink does not: SIZE, SMTPUTF8, CHUNKING.</summary>
public sealed class SmtpEmailSenderExtensionsTests
{
    private static readonly EmailMessage Message = new(7, "user@example.test", "Hello", "Body.\n", false, DateTimeOffset.UnixEpoch);

    [Fact]
    public async Task SendAsync_MessageOverServerSizeLimit_PermanentWithBothNumbersAndNoMailFrom()
    {
        await using var server = ScriptedSmtpServer.Start(false, "PIPELINING", "8BITMIME", "SIZE 1000");
        await using var sender = NewSender(server.Port);

        SmtpSendException failure = await Assert.ThrowsAsync<SmtpSendException>(
            () => sender.SendAsync(Message with { Body = new string('x', 2000) }, CancellationToken.None));

        Assert.Equal(SendFailureKind.Permanent, failure.Kind);
        Assert.Matches(@"The message is \d{4} bytes; the server's SIZE limit is 1000 bytes\.", failure.Message);
        Assert.DoesNotContain(server.Commands, c => c.StartsWith("MAIL", StringComparison.Ordinal));
    }

    [Fact]
    public async Task SendAsync_MessageUnderServerSizeLimit_DeclaresSizeAndDelivers()
    {
        await using var server = ScriptedSmtpServer.Start(false, "8BITMIME", "SIZE 100000");
        await using (var sender = NewSender(server.Port))
        {
            await sender.SendAsync(Message, CancellationToken.None);
        }

        Assert.Contains(server.Commands, c => c.StartsWith("MAIL FROM:<notifications@example.test> SIZE=", StringComparison.Ordinal));
        Assert.Single(server.Messages);
    }

    [Fact]
    public async Task SendAsync_NonAsciiLocalPartAndServerOffersSmtpUtf8_SentWithSmtpUtf8()
    {
        await using var server = ScriptedSmtpServer.Start(false, "8BITMIME", "SMTPUTF8");
        await using (var sender = NewSender(server.Port))
        {
            await sender.SendAsync(Message with { To = "jürgen@bücher.example" }, CancellationToken.None);
        }

        Assert.Contains(server.Commands, c => c.StartsWith("MAIL FROM:<notifications@example.test>", StringComparison.Ordinal) && c.Contains(" SMTPUTF8", StringComparison.Ordinal));
        Assert.Contains("RCPT TO:<jürgen@bücher.example>", server.Commands);
        Assert.Contains("\nTo: jürgen@bücher.example\n", "\n" + Assert.Single(server.Messages), StringComparison.Ordinal);
    }

    [Fact]
    public async Task SendAsync_ServerOffersChunking_SendsOneBdatLastChunk()
    {
        await using var server = ScriptedSmtpServer.Start(false, "PIPELINING", "8BITMIME", "CHUNKING");
        await using (var sender = NewSender(server.Port))
        {
            await sender.SendAsync(Message, CancellationToken.None);
        }

        Assert.Contains(server.Commands, c => c.StartsWith("BDAT ", StringComparison.Ordinal) && c.EndsWith(" LAST", StringComparison.Ordinal));
        Assert.DoesNotContain("DATA", server.Commands);
        Assert.Contains("X-Notification-Id: 7\n", Assert.Single(server.Messages), StringComparison.Ordinal);
    }

    [Fact]
    public async Task SendAsync_HangUpAfterLastBdatChunk_Unknown()
    {
        await using var server = ScriptedSmtpServer.Start(true, "PIPELINING", "8BITMIME", "CHUNKING");
        await using var sender = NewSender(server.Port);

        SmtpSendException failure = await Assert.ThrowsAsync<SmtpSendException>(() => sender.SendAsync(Message, CancellationToken.None));

        Assert.Equal(SendFailureKind.Unknown, failure.Kind);
        Assert.Single(server.Messages); // the server had it all: sending again would duplicate it
    }

    private static SmtpEmailSender NewSender(int port) => new(
        new SmtpOptions { Port = port, Security = SmtpSecurity.None, From = "notifications@example.test" },
        NullLogger<SmtpEmailSender>.Instance);
}
