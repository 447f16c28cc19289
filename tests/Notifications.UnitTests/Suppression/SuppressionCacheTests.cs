using MailKit.Net.Smtp;
using MimeKit;
using Notifications.Consumer.Channels.Email;
using Notifications.Consumer.Suppression;
using Notifications.Shared.Data;

namespace Notifications.UnitTests.Suppression;

public sealed class SuppressionCacheTests
{
    [Fact]
    public void Match_AddressOrItsDomain_TheKeyInScope()
    {
        var cache = new SuppressionCache();
        cache.Apply([Entry("gone@example.com", "all"), Entry("@blocked.test", "all"), Entry("news@example.com", "bulk")], load: true);

        Assert.Equal("gone@example.com", cache.Match("Gone@Example.com", bulk: false));
        Assert.Equal("@blocked.test", cache.Match("anyone@BLOCKED.test", bulk: false));
        Assert.Null(cache.Match("news@example.com", bulk: false));
        Assert.Equal("news@example.com", cache.Match("news@example.com", bulk: true));
        Assert.Null(cache.Match("someone@example.com", bulk: true));
    }

    [Fact]
    public void Apply_RemovedRow_KeyNoLongerMatchesAndWatermarkAdvances()
    {
        var cache = new SuppressionCache();
        cache.Apply([Entry("gone@example.com", "all")], load: true);
        var removedAt = DateTimeOffset.UnixEpoch.AddHours(1);

        cache.Apply([Entry("gone@example.com", "all") with { ChangedAt = removedAt, RemovedAt = removedAt }], load: false);

        Assert.Null(cache.Match("gone@example.com", bulk: true));
        Assert.Equal(removedAt, cache.Watermark);
    }

    [Fact]
    public void Add_AllMailOverBulkOnly_Widens()
    {
        var cache = new SuppressionCache();
        cache.Add("user@example.com", bulkOnly: true);
        cache.Add("user@example.com", bulkOnly: false);
        cache.Add("user@example.com", bulkOnly: true);

        Assert.Equal("user@example.com", cache.Match("user@example.com", bulk: false));
    }

    [Theory]
    [InlineData(SmtpErrorCode.RecipientNotAccepted, 550, true)]
    [InlineData(SmtpErrorCode.RecipientNotAccepted, 553, true)]
    [InlineData(SmtpErrorCode.SenderNotAccepted, 550, false)]
    [InlineData(SmtpErrorCode.MessageNotAccepted, 554, false)]
    public void IsHardBounce_PermanentFailure_OnlyA5xxToRcptTo(SmtpErrorCode step, int code, bool expected)
    {
        var reply = new SmtpCommandException(step, (SmtpStatusCode)code, new MailboxAddress("", "a@example.com"), "rejected");
        var failure = SmtpFailures.Classify(reply, inTransaction: true, finalDataWritten: false, callerCancelled: false, new SmtpOptions())!;

        Assert.Equal(expected, EmailChannel.IsHardBounce(failure));
    }

    [Fact]
    public void IsHardBounce_TransientRcptReply_False()
    {
        var reply = new SmtpCommandException(SmtpErrorCode.RecipientNotAccepted, SmtpStatusCode.MailboxBusy, new MailboxAddress("", "a@example.com"), "busy");
        var failure = SmtpFailures.Classify(reply, inTransaction: true, finalDataWritten: false, callerCancelled: false, new SmtpOptions())!;

        Assert.False(EmailChannel.IsHardBounce(failure));
    }

    [Theory]
    [InlineData(" User@Example.COM ", "user@example.com")]
    [InlineData("@Example.com", "@example.com")]
    public void TryNormalize_AddressOrDomain_LowerCaseKey(string value, string expected)
    {
        Assert.Equal(expected, SuppressionKeys.TryNormalize(value, out _));
    }

    [Theory]
    [InlineData(" fcm:dXNlcjE:APA91bHvQ ", "fcm:dXNlcjE:APA91bHvQ")]
    [InlineData("apns:ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789", "apns:ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789")]
    public void TryNormalize_PushRecipient_KeptExactly(string value, string expected)
    {
        Assert.Equal(expected, SuppressionKeys.TryNormalize(value, out _));
        Assert.Equal(expected, SuppressionKeys.ForRecipient(value));
        Assert.Null(SuppressionKeys.DomainOf(expected));
    }

    [Fact]
    public void Match_PushTokensDifferingOnlyInCase_OnlyTheOneOnTheList()
    {
        var cache = new SuppressionCache();
        cache.Apply([Entry("fcm:token-abc", "all")], load: true);

        Assert.Equal("fcm:token-abc", cache.Match("fcm:token-abc", bulk: false));
        Assert.Null(cache.Match("fcm:token-ABC", bulk: false));
    }

    [Theory]
    [InlineData("fcm:not a token!", "invalid FCM registration token")]
    [InlineData("apns:xyz", "invalid APNs device token")]
    [InlineData("", "empty")]
    [InlineData("nobody", "neither an address")]
    [InlineData("user@", "no domain")]
    [InlineData("a b@example.com", "not a bare address")]
    public void TryNormalize_NotAKey_NullWithReason(string value, string reason)
    {
        Assert.Null(SuppressionKeys.TryNormalize(value, out string? error));
        Assert.Contains(reason, error, StringComparison.Ordinal);
    }

    private static SuppressionEntry Entry(string key, string scope) =>
        new(key, SuppressionReasons.Manual, scope, DateTimeOffset.UnixEpoch, null, DateTimeOffset.UnixEpoch, null);
}
