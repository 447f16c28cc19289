using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.Bounces;

/// <summary>
/// One private Postfix for a test class, relaying every DSN for <see cref="BounceDomain"/> to a smtp-sink, whose dump shows
/// each DSN as it arrived (the null sender, the envelope recipient, the report).
/// </summary>
public sealed class PostfixWithSink : IAsyncLifetime
{
    /// <summary>The domain of the envelope senders: the DSNs Postfix sends there land in <see cref="Sink"/>.</summary>
    public const string BounceDomain = "bounces.example.test";

    internal SmtpSink Sink { get; private set; } = null!;

    internal PostfixServer Postfix { get; private set; } = null!;

    public async Task InitializeAsync()
    {
        Sink = await SmtpSink.StartAsync();
        Postfix = await PostfixServer.StartAsync(BounceDomain, Sink.Host, Sink.Port);
    }

    // Also after a failed start (xUnit disposes the fixture then too): whatever did start is stopped.
    public async Task DisposeAsync()
    {
        await using (Sink)
        {
            if (Postfix is not null)
            {
                await Postfix.DisposeAsync();
            }
        }
    }
}
