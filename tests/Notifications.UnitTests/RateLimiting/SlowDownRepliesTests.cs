using Notifications.Consumer.Channels.Email;
using Notifications.Consumer.Channels;
using Notifications.Consumer.RateLimiting;

namespace Notifications.UnitTests.RateLimiting;

/// <summary>Which SMTP replies lower a destination's rate: 421, 452, 451 with 4.7.x — not other 4xx, not 5xx.</summary>
public sealed class SlowDownRepliesTests
{
    [Theory]
    [InlineData(421, "session setup: 421 4.7.0 Too many connections, slow down")]
    [InlineData(421, "RCPT TO: 421 Service not available")]
    [InlineData(452, "RCPT TO: 452 4.5.3 Too many recipients")]
    [InlineData(451, "RCPT TO: 451 4.7.1 Rate limited, try again later")]
    [InlineData(451, "DATA: 451 4.7.28 Our system has detected an unusual rate of unsolicited mail")]
    public void IsSlowDown_ThrottlingReply_True(int code, string text)
    {
        Assert.True(SlowDownReplies.IsSlowDown(new SmtpSendException(SendFailureKind.Transient, code, text)));
    }

    [Theory]
    [InlineData(451, "DATA: 451 4.3.0 Local error in processing")]
    [InlineData(451, "DATA: 451 4.7")]
    [InlineData(450, "RCPT TO: 450 4.7.1 Mailbox unavailable")]
    [InlineData(550, "RCPT TO: 550 5.7.1 Rejected")]
    public void IsSlowDown_OtherReply_False(int code, string text)
    {
        var kind = code >= 500 ? SendFailureKind.Permanent : SendFailureKind.Transient;

        Assert.False(SlowDownReplies.IsSlowDown(new SmtpSendException(kind, code, text)));
    }

    [Fact]
    public void IsSlowDown_NoReply_False()
    {
        Assert.False(SlowDownReplies.IsSlowDown(new SmtpSendException(SendFailureKind.Transient, null, "connect: connection refused")));
        Assert.False(SlowDownReplies.IsSlowDown(new IOException("421")));
    }
}
