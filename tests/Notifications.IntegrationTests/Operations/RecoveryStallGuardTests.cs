using Microsoft.Extensions.Logging.Abstractions;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.Shared.Hosting;
using Notifications.Shared.Messaging;

namespace Notifications.IntegrationTests.Operations;

/// <summary>
/// RabbitMQ.Client 7.2.2 starts no new recovery when the connection it just brought back is closed before its recovery task
/// has ended. A vhost at its connection limit does that: RabbitMQ answers open-ok and then closes with 530 NOT_ALLOWED. A
/// fresh-clone run's producer, cut while it set up (nothing to recover, so its recovery ended at once), logged "Broker back
/// after 2.3 s" and failed every batch on the closed connection from then on. Here the window is held open on purpose: a
/// handler of the client's own recovery-succeeded event takes a second, and the 530 comes meanwhile. In a private vhost.
/// </summary>
[Collection("services")]
public sealed class RecoveryStallGuardTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(60);
    private static readonly TimeSpan StallAfter = TimeSpan.FromSeconds(4);

    [Fact]
    public async Task ReopenedConnectionRefusedBeforeItsRecoveryEnded_ClientStopsRecovering_GuardStopsTheWorker()
    {
        // The 530 must come while the client's recovery task is still running; on a loaded machine it can come after it, and
        // then the client recovers as it should. The scene is tried again until the 530 came in the window (at most 5 times).
        for (int attempt = 1; ; attempt++)
        {
            await using var scene = await Scene.StartAsync($"stall-guard-test-{attempt}");
            var held = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            scene.Connection.RecoverySucceededAsync += async (_, _) =>
            {
                held.TrySetResult();
                await Task.Delay(TimeSpan.FromSeconds(2));
            };

            await scene.CutAsync(refuseReconnects: true);
            await held.Task.WaitAsync(Patience);
            await scene.LetInAsync();

            // The client gave up: the vhost lets connections in again, and the connection stays closed by the 530.
            var stopped = await Task.WhenAny(scene.Stopped.Task, Task.Delay(StallAfter * 2));
            if (stopped != scene.Stopped.Task && scene.Connection.IsOpen && attempt < 5)
            {
                continue;
            }

            Assert.False(scene.Connection.IsOpen);
            Assert.Contains("NOT_ALLOWED", scene.Connection.CloseReason?.ReplyText, StringComparison.Ordinal);
            await scene.Stopped.Task.WaitAsync(Patience);
            return;
        }
    }

    [Fact]
    public async Task ConnectionClosedAndRecovered_GuardLeavesTheWorkerRunning()
    {
        await using var scene = await Scene.StartAsync("stall-guard-ok");

        // Not refused (a refused reconnect may meet the client's race on its own): the client reconnects at its next attempt.
        await scene.CutAsync(refuseReconnects: false);

        await Eventually.WaitAsync(() => Task.FromResult(scene.Connection.IsOpen), open => open, Patience, "connection recovered");
        await Task.Delay(StallAfter * 1.5);
        Assert.False(scene.Stopped.Task.IsCompleted);
        Assert.True(scene.Connection.IsOpen);
    }

    private sealed class Scene : IAsyncDisposable
    {
        private readonly BrokerManagement _management;
        private readonly string _vhost;
        private readonly string _client;
        private readonly RecoveryStallGuard _guard;

        private Scene(BrokerManagement management, string vhost, string client, RabbitMQ.Client.IConnection connection)
        {
            _management = management;
            _vhost = vhost;
            _client = client;
            Connection = connection;
            _guard = RecoveryStallGuard.Attach(connection, NullLogger.Instance, TimeProvider.System, StallAfter, () => Stopped.TrySetResult());
        }

        public RabbitMQ.Client.IConnection Connection { get; }

        public TaskCompletionSource Stopped { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public static async Task<Scene> StartAsync(string client)
        {
            var management = BrokerManagement.Create();
            string vhost = $"stall.{Guid.NewGuid():N}"[..18];
            var uri = await management.CreateVhostAsync(vhost);
            var connection = await RabbitConnector.ConnectAsync(new RabbitMqOptions { Uri = uri }, client, NullLogger.Instance, CancellationToken.None);
            return new Scene(management, vhost, client, connection);
        }

        // The broker closes the connection and, if told, refuses every new one for now (open-ok, then 530).
        public async Task CutAsync(bool refuseReconnects)
        {
            var names = await Eventually.WaitAsync(() => _management.ConnectionsAsync(_vhost, _client), c => c.Count == 1, Patience, "connected");
            if (refuseReconnects)
            {
                await _management.LimitConnectionsAsync(_vhost, 0);
            }

            await _management.CloseConnectionAsync(names[0], "stall guard test");
        }

        public Task LetInAsync() => _management.LimitConnectionsAsync(_vhost, null);

        public async ValueTask DisposeAsync()
        {
            _guard.Dispose();
            await Connection.DisposeAsync();
            await _management.DeleteVhostAsync(_vhost);
            _management.Dispose();
        }
    }
}
