using Notifications.Shared.Data;
using NotificationPriority = Notifications.Client.NotificationPriority;

namespace Notifications.IntegrationTests.Stores;

/// <summary>The backlog per priority that <c>admin status</c> and the console's overview show: counted up to a cap, never further.</summary>
public abstract partial class StoreSuite
{
    [Fact]
    public async Task CountByPriorityAsync_MoreRowsThanTheCap_EachPriorityStopsAtTheCap()
    {
        var (outbox, _) = await CreateStoresAsync();
        foreach (var priority in (NotificationPriority[])[NotificationPriority.Urgent, NotificationPriority.Urgent, NotificationPriority.Urgent,
                     NotificationPriority.Normal, NotificationPriority.Bulk, NotificationPriority.Bulk])
        {
            await EnqueueAsync(priority, notBefore: null);
        }

        var capped = await outbox.CountByPriorityAsync(2, CancellationToken.None);
        var whole = await outbox.CountByPriorityAsync(10, CancellationToken.None);

        Assert.Equal(new OutboxBacklog(2, 1, 2, 2), capped);
        Assert.True(capped.Capped);
        Assert.Equal(new OutboxBacklog(3, 1, 2, 10), whole);
        Assert.False(whole.Capped);
        Assert.Equal(6, whole.Total);
    }
}
