using Microsoft.Extensions.Logging.Abstractions;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.Shared.Hosting;
using Notifications.Shared.Messaging;
using RabbitMQ.Client;
using RabbitMQ.Client.Events;

namespace Notifications.IntegrationTests.Operations;

/// <summary>
/// The window the consumer's supervisor raced (scenario 8, silent network loss, on a loaded machine): the client's recovery
/// reopens the connection before it recovers the channels, one after another, so for a while the connection is open and a
/// channel still closed. Replacing that channel then left the client's recovered one delivering to an abandoned consumer,
/// its messages never acked (42 left in the queues). The watch says the recovery is not over until the client says so.
/// In a private vhost, so the forced close touches nothing else.
/// </summary>
[Collection("services")]
public sealed class ConnectionRecoveryWatchTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(30);

    [Fact]
    public async Task InProgress_ConnectionOpenAgainButAChannelNotYetRecovered_UntilTheClientIsDone()
    {
        using var management = BrokerManagement.Create();
        string vhost = $"recovery.{Guid.NewGuid():N}"[..20];
        var uri = await management.CreateVhostAsync(vhost);
        try
        {
            await using var connection = await RabbitConnector.ConnectAsync(
                new RabbitMqOptions { Uri = uri }, "recovery-watch-test", NullLogger.Instance, CancellationToken.None);
            var watch = ConnectionRecoveryWatch.Attach(connection);
            await using var first = await connection.CreateChannelAsync();
            await using var second = await connection.CreateChannelAsync();
            string firstTag = await ConsumeAsync(first, "first");
            await ConsumeAsync(second, "second");

            // Held inside the client's recovery of the first channel's consumer: the second channel's turn is still to come.
            var window = new TaskCompletionSource<(bool ConnectionOpen, bool SecondOpen, bool InProgress)>(TaskCreationOptions.RunContinuationsAsynchronously);
            var release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            connection.RecoveringConsumerAsync += async (_, args) =>
            {
                if (args.ConsumerTag == firstTag && window.TrySetResult((connection.IsOpen, second.IsOpen, watch.InProgress)))
                {
                    await release.Task;
                }
            };
            Assert.False(watch.InProgress);

            var names = await Eventually.WaitAsync(() => management.ConnectionsAsync(vhost, "recovery-watch-test"), c => c.Count == 1, Patience, "connected");
            await management.CloseConnectionAsync(names[0], "recovery watch test");
            var seen = await window.Task.WaitAsync(Patience);
            bool stillInProgress = watch.InProgress;
            release.SetResult();

            Assert.Equal((true, false, true), seen);
            Assert.True(stillInProgress);
            await Eventually.WaitAsync(() => Task.FromResult(watch.InProgress), inProgress => !inProgress, Patience, "recovery reported done");
            Assert.True(second.IsOpen);
        }
        finally
        {
            await management.DeleteVhostAsync(vhost);
        }
    }

    private static async Task<string> ConsumeAsync(IChannel channel, string queue)
    {
        await channel.QueueDeclareAsync(queue, durable: false, exclusive: false, autoDelete: false);
        return await channel.BasicConsumeAsync(queue, autoAck: false, new AsyncEventingBasicConsumer(channel));
    }
}
