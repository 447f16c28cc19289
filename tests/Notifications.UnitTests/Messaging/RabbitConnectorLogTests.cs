using Microsoft.Extensions.Logging;
using Notifications.Shared.Hosting;
using Notifications.Shared.Messaging;

namespace Notifications.UnitTests.Messaging;

/// <summary>
/// The first connect's retry log while the broker's name does not resolve yet (a stack starting): one line per
/// attempt with the reason, no stack trace. The first 36 s of a stack's logs were stack traces.
/// </summary>
public sealed class RabbitConnectorLogTests
{
    [Fact]
    public async Task ConnectAsync_UnresolvableHost_LogsOneLineWithTheReasonPerAttemptAndNoException()
    {
        var logger = new RecordingLogger();
        var options = new RabbitMqOptions { Uri = new Uri("amqp://guest:guest@rabbitmq.invalid:5672/"), MaxConnectRetryDelay = TimeSpan.FromMilliseconds(100) };
        using var stop = new CancellationTokenSource();
        logger.OnRecord = () =>
        {
            if (logger.Records.Count >= 3)
            {
                stop.Cancel();
            }
        };

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => RabbitConnector.ConnectAsync(options, "test", logger, stop.Token));

        Assert.True(logger.Records.Count >= 3, string.Join('\n', logger.Records.Select(r => r.Message)));
        Assert.All(logger.Records, r =>
        {
            Assert.Equal(LogLevel.Warning, r.Level);
            Assert.Null(r.Exception);
            Assert.DoesNotContain('\n', r.Message);
            Assert.StartsWith("RabbitMQ at rabbitmq.invalid:5672 not reachable (attempt ", r.Message, StringComparison.Ordinal);
            Assert.Contains("None of the specified endpoints were reachable: ", r.Message, StringComparison.Ordinal);
        });
    }
}
