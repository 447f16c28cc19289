using Notifications.Shared.Hosting;
using Notifications.Shared.Messaging;

namespace Notifications.UnitTests.Messaging;

public sealed class QueueArgumentsTests
{
    private static readonly TimeSpan Delay = TimeSpan.FromSeconds(5);

    [Fact]
    public void For_Classic_KeepsTheArgumentsExistingQueuesWereDeclaredWith()
    {
        var options = new RabbitMqOptions { Exchange = "ex", Queue = "work" };

        Assert.Empty(QueueArguments.For(options, QueueRole.Work));
        Assert.Empty(QueueArguments.For(options, QueueRole.DeadLetter));
        Assert.Equal(
            new Dictionary<string, object?> { ["x-message-ttl"] = 5000L, ["x-dead-letter-exchange"] = "ex", ["x-dead-letter-routing-key"] = "work" },
            QueueArguments.For(options, QueueRole.Retry, Delay));
    }

    [Fact]
    public void For_QuorumWorkQueue_DeliveryLimitDeadLettersAtLeastOnceToTheInbox()
    {
        var options = new RabbitMqOptions { Exchange = "ex", Queue = "work", QueueType = RabbitQueueType.Quorum, DeliveryLimit = 7 };

        Assert.Equal(
            new Dictionary<string, object?>
            {
                ["x-queue-type"] = "quorum",
                ["x-delivery-limit"] = 7,
                ["x-dead-letter-exchange"] = "ex",
                ["x-dead-letter-routing-key"] = "work.dead.inbox",
                ["x-dead-letter-strategy"] = "at-least-once",
                ["x-overflow"] = "reject-publish",
            },
            QueueArguments.For(options, QueueRole.Work));
    }

    [Fact]
    public void For_Inbox_QuorumDeadLettersToTheDeadLetterQueueClassicHasNoArguments()
    {
        var quorum = new RabbitMqOptions { Exchange = "ex", Queue = "work", QueueType = RabbitQueueType.Quorum };

        Assert.Empty(QueueArguments.For(new RabbitMqOptions { Exchange = "ex", Queue = "work" }, QueueRole.DeadLetterInbox));
        Assert.Equal(
            new Dictionary<string, object?>
            {
                ["x-queue-type"] = "quorum",
                ["x-dead-letter-exchange"] = "ex",
                ["x-dead-letter-routing-key"] = "work.dead",
                ["x-dead-letter-strategy"] = "at-least-once",
                ["x-overflow"] = "reject-publish",
            },
            QueueArguments.For(quorum, QueueRole.DeadLetterInbox));
        Assert.Equal("work.dead.inbox", quorum.DeadLetterInbox);
    }

    [Fact]
    public void For_QuorumRetryQueue_TtlThenBackToTheWorkQueueAtLeastOnce()
    {
        var options = new RabbitMqOptions { Exchange = "ex", Queue = "work", QueueType = RabbitQueueType.Quorum };

        Assert.Equal(
            new Dictionary<string, object?>
            {
                ["x-queue-type"] = "quorum",
                ["x-message-ttl"] = 5000L,
                ["x-dead-letter-exchange"] = "ex",
                ["x-dead-letter-routing-key"] = "work.lane",
                ["x-dead-letter-strategy"] = "at-least-once",
                ["x-overflow"] = "reject-publish",
            },
            QueueArguments.For(options, QueueRole.Retry, Delay, returnTo: "work.lane"));
        Assert.Equal(new Dictionary<string, object?> { ["x-queue-type"] = "quorum" }, QueueArguments.For(options, QueueRole.DeadLetter));
    }

    [Fact]
    public void For_RetryWithoutDelay_Throws() =>
        Assert.Throws<ArgumentNullException>(() => QueueArguments.For(new RabbitMqOptions(), QueueRole.Retry));
}
