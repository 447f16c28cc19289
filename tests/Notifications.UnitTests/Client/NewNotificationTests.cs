using Notifications.Client;
using WorkerLane = Notifications.Shared.Data.NotificationPriority;
using WorkerLanes = Notifications.Shared.Data.NotificationPriorities;

namespace Notifications.UnitTests.Client;

/// <summary>What the client package checks before it touches the database.</summary>
public sealed class NewNotificationTests
{
    [Fact]
    public void NewNotification_Defaults_NormalAndNoNotBeforeAndNoKey()
    {
        var notification = new NewNotification("a@example.com", "Hi", "body");

        Assert.Equal(NotificationPriority.Normal, notification.Priority);
        Assert.Null(notification.NotBefore);
        Assert.Null(notification.IdempotencyKey);
    }

    // The client and the workers each carry the lane enum (the client package must not reference Shared);
    // the column value is the contract, so every client value must map to the worker's.
    [Theory]
    [InlineData(NotificationPriority.Urgent)]
    [InlineData(NotificationPriority.Normal)]
    [InlineData(NotificationPriority.Bulk)]
    public void PriorityColumn_EachDefinedValue_IsTheWorkersColumnValue(NotificationPriority priority) =>
        Assert.Equal(WorkerLanes.ToColumn((WorkerLane)(int)priority), OutboxValues.PriorityColumn(priority));

    [Fact]
    public void PriorityColumn_ClientAndWorkerEnums_HaveTheSameValues() =>
        Assert.Equal(Enum.GetNames<WorkerLane>(), Enum.GetNames<NotificationPriority>());

    [Fact]
    public void IdempotencyKeyOf_AtTheLimit_IsKept()
    {
        string key = new('k', NewNotification.MaxIdempotencyKeyLength);

        Assert.Equal(key, OutboxValues.IdempotencyKeyOf(new NewNotification("a@example.com", "Hi", "body") { IdempotencyKey = key }));
    }

    [Theory]
    [InlineData(201)]
    [InlineData(0)]
    public void IdempotencyKeyOf_OverTheLimitOrEmpty_ThrowsArgumentExceptionSayingWhy(int length)
    {
        var notification = new NewNotification("a@example.com", "Hi", "body") { IdempotencyKey = new string('k', length) };

        var refused = Assert.Throws<ArgumentException>(() => OutboxValues.IdempotencyKeyOf(notification));

        Assert.Contains(length == 0 ? "empty" : "201 characters long; at most 200", refused.Message, StringComparison.Ordinal);
    }
}
