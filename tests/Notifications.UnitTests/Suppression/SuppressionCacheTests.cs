using System.Diagnostics.Metrics;
using MailKit.Net.Smtp;
using Microsoft.Extensions.DependencyInjection;
using Notifications.Consumer;
using MimeKit;
using Notifications.Consumer.Channels.Email;
using Notifications.Consumer.Suppression;
using Notifications.Shared.Data;

namespace Notifications.UnitTests.Suppression;

public sealed class SuppressionCacheTests : IAsyncDisposable
{
    private readonly ServiceProvider _services = new ServiceCollection().AddMetrics().BuildServiceProvider();
    private readonly FakeSuppressionStore _store = new();
    private SuppressionCache _cache = new(capacity: 100);
    private SuppressionList? _list;

    private SuppressionList List => _list ??= new SuppressionList(_store, _cache, new ConsumerOptions(), new SuppressionMetrics(_services.GetRequiredService<IMeterFactory>(), _cache));

    [Fact]
    public async Task Match_AddressOrItsDomain_TheKeyInScopeWithoutARoundTrip()
    {
        _cache.Load([Entry("gone@example.com", "all"), Entry("@blocked.test", "all"), Entry("news@example.com", "bulk")]);

        Assert.Equal("gone@example.com", await Match("Gone@Example.com", bulk: false));
        Assert.Equal("@blocked.test", await Match("anyone@BLOCKED.test", bulk: false));
        Assert.Null(await Match("news@example.com", bulk: false));
        Assert.Equal("news@example.com", await Match("news@example.com", bulk: true));
        Assert.Null(await Match("someone@example.com", bulk: true));
        Assert.True(_cache.IsWhole);
        Assert.Equal(0, _store.Finds);
    }

    [Fact]
    public async Task Apply_RemovedRow_KeyNoLongerMatchesAndWatermarkAdvances()
    {
        _cache.Load([Entry("gone@example.com", "all")]);
        var removedAt = DateTimeOffset.UnixEpoch.AddHours(1);

        _cache.Apply(Entry("gone@example.com", "all") with { ChangedAt = removedAt, RemovedAt = removedAt });

        Assert.Null(await Match("gone@example.com", bulk: true));
        Assert.Equal(removedAt, _cache.Watermark);
    }

    [Fact]
    public async Task Add_AllMailOverBulkOnly_Widens()
    {
        _cache.Load([]);
        _cache.Add("user@example.com", bulkOnly: true);
        _cache.Add("user@example.com", bulkOnly: false);
        _cache.Add("user@example.com", bulkOnly: true);

        Assert.Equal("user@example.com", await Match("user@example.com", bulk: false));
    }

    [Fact]
    public async Task Match_ListLongerThanTheCopy_LooksUpInBatchesKeepsTheAnswersUnderTheBound()
    {
        // A list of 5,000 over a copy of 100: the load reads 101 rows, holds none, and every key is looked up when asked for.
        _cache = new SuppressionCache(capacity: 100);
        for (int i = 0; i < 5_000; i++)
        {
            _store.Add(Entry($"listed{i}@example.com", i % 2 == 0 ? "all" : "bulk"));
        }

        _cache.Load(await _store.LoadAsync(_cache.Capacity + 1, CancellationToken.None));
        Assert.False(_cache.IsWhole);

        for (int i = 0; i < 5_000; i += 7)
        {
            Assert.Equal(i % 2 == 0 ? $"listed{i}@example.com" : null, await Match($"listed{i}@example.com", bulk: false));
            Assert.Equal($"listed{i}@example.com", await Match($"Listed{i}@example.com", bulk: true));
            Assert.Null(await Match($"free{i}@example.com", bulk: true));
        }

        Assert.InRange(_cache.Count, 1, 100);
        int finds = _store.Finds;
        var concurrent = await Task.WhenAll(Enumerable.Range(0, 200).Select(i => Match($"listed{i * 2}@other.example", bulk: false).AsTask()));
        Assert.All(concurrent, Assert.Null);
        Assert.True(_store.Finds - finds < 200, $"{_store.Finds - finds} statements for 200 concurrent notifications");
    }

    [Fact]
    public async Task Match_OnDemandAnswerHeld_UntilARefreshReadsItsRowChanged()
    {
        _cache = new SuppressionCache(capacity: 10);
        for (int i = 0; i < 20; i++)
        {
            _store.Add(Entry($"filler{i}@example.com", "all"));
        }

        _cache.Load(await _store.LoadAsync(_cache.Capacity + 1, CancellationToken.None));
        Assert.Null(await Match("late@example.com", bulk: false));
        var added = Entry("late@example.com", "all") with { ChangedAt = DateTimeOffset.UnixEpoch.AddHours(1) };
        _store.Add(added);
        int finds = _store.Finds;

        Assert.Null(await Match("late@example.com", bulk: false));   // the answer held: no statement
        Assert.Equal(finds, _store.Finds);
        _cache.Apply(added);
        Assert.Equal("late@example.com", await Match("late@example.com", bulk: false));
        Assert.Equal(finds + 1, _store.Finds);
    }

    [Fact]
    public async Task Apply_WholeCopyGrowsPastTheBound_LooksUpFromThen()
    {
        _cache = new SuppressionCache(capacity: 10);
        _cache.Load([]);
        for (int i = 0; i < 15; i++)
        {
            var row = Entry($"new{i}@example.com", "all");
            _store.Add(row);
            _cache.Apply(row);
        }

        Assert.False(_cache.IsWhole);
        for (int i = 0; i < 15; i++)
        {
            Assert.Equal($"new{i}@example.com", await Match($"new{i}@example.com", bulk: false));
        }
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
    public async Task Match_PushTokensDifferingOnlyInCase_OnlyTheOneOnTheList()
    {
        _cache.Load([Entry("fcm:token-abc", "all")]);

        Assert.Equal("fcm:token-abc", await Match("fcm:token-abc", bulk: false));
        Assert.Null(await Match("fcm:token-ABC", bulk: false));
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

    public async ValueTask DisposeAsync()
    {
        if (_list is not null)
        {
            await _list.DisposeAsync();
        }

        _cache.Dispose();
        await _services.DisposeAsync();
    }

    private ValueTask<string?> Match(string recipient, bool bulk) => List.MatchAsync(recipient, bulk, CancellationToken.None);

    private static SuppressionEntry Entry(string key, string scope) =>
        new(key, SuppressionReasons.Manual, scope, DateTimeOffset.UnixEpoch, null, DateTimeOffset.UnixEpoch, null);
}
