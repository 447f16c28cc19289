using Notifications.Consumer.Preferences;
using Notifications.Shared.Contract;
using Notifications.Shared.Data;
using Notifications.Shared.Data.Audiences;

namespace Notifications.UnitTests.Preferences;

/// <summary>
/// What the consumer asks of the preferences before a send (<see cref="PreferenceCheck"/>): only a row with a category, only
/// on a channel the registry has contact points for, the address keyed as the registry keeps it; and the reason it records.
/// Which opt-out wins (critical, preference, default) is the store's SQL, tested on PostgreSQL (PreferenceDeliveryTests).
/// </summary>
public sealed class PreferenceCheckTests
{
    private static readonly DateTimeOffset Created = new(2026, 11, 29, 12, 0, 0, TimeSpan.Zero);

    [Fact]
    public async Task OptedOutAsync_EmailWithCategory_AsksByTheLowerCasedAddressAndGivesTheReason()
    {
        var store = new RecordingStore(new OptOut("ana-1", ByPreference: true));

        string? reason = await new PreferenceCheck(store).OptedOutAsync(Email("Ana@Example.com", "marketing"), CancellationToken.None);

        Assert.Equal(("email", "ana@example.com", "marketing"), Assert.Single(store.Asked));
        Assert.Equal("subscriber 'ana-1' opted out of category 'marketing' on email", reason);
    }

    [Fact]
    public async Task OptedOutAsync_PushWithCategory_AsksByTheExactToken()
    {
        var store = new RecordingStore(null);
        var push = new NotificationMessage(2, "fcm:AbC-token", "Shipped", "Order 7", false, Created, null) { Channel = NotificationChannels.Push, Category = "orders" };

        string? reason = await new PreferenceCheck(store).OptedOutAsync(push, CancellationToken.None);

        Assert.Null(reason);
        Assert.Equal(("push", "fcm:AbC-token", "orders"), Assert.Single(store.Asked));
    }

    [Fact]
    public async Task OptedOutAsync_NoCategoryOrWebhook_NeverAsks()
    {
        var store = new RecordingStore(new OptOut("ana-1", ByPreference: true));
        var webhook = new NotificationMessage(3, "billing", "invoice.paid", null, false, Created, null) { Channel = NotificationChannels.Webhook, Category = "billing" };

        Assert.Null(await new PreferenceCheck(store).OptedOutAsync(Email("ana@example.com", category: null), CancellationToken.None));
        Assert.Null(await new PreferenceCheck(store).OptedOutAsync(webhook, CancellationToken.None));
        Assert.Empty(store.Asked);
    }

    [Fact]
    public void Reason_ByDefault_SaysTheDefaultAndThatTheSubscriberDidNotOptIn()
    {
        Assert.Equal("category 'newsletter' is off by default on push and subscriber 'bo' has not opted in",
            new OptOut("bo", ByPreference: false).Reason("newsletter", "push"));
    }

    [Fact]
    public async Task RecordAsync_RecordsTheIdCreatedAtAttemptAndReason()
    {
        var store = new RecordingStore(null);

        await new PreferenceCheck(store).RecordAsync(Email("ana@example.com", "marketing"), attempt: 2, "why", CancellationToken.None);

        Assert.Equal((new SentNotification(1, Created, 2), "why"), Assert.Single(store.Recorded));
    }

    private static NotificationMessage Email(string recipient, string? category) =>
        new(1, recipient, "Sale", "20% off", false, Created, null) { Category = category };

    private sealed class RecordingStore(OptOut? answer) : IPreferenceStore
    {
        public List<(string Channel, string Address, string Category)> Asked { get; } = [];

        public List<(SentNotification Notification, string Reason)> Recorded { get; } = [];

        public Task<OptOut?> FindOptOutAsync(string channel, string address, string category, CancellationToken cancellationToken)
        {
            Asked.Add((channel, address, category));
            return Task.FromResult(answer);
        }

        public Task RecordOptedOutAsync(SentNotification notification, string reason, CancellationToken cancellationToken)
        {
            Recorded.Add((notification, reason));
            return Task.CompletedTask;
        }

        public Task<int> OptOutByLinkAsync(string channel, string address, string category, CancellationToken cancellationToken) =>
            throw new InvalidOperationException("the consumer's check never opts anybody out");
    }
}
