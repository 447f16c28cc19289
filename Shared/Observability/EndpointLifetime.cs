using Microsoft.Extensions.Hosting;

namespace Notifications.Shared.Observability;

/// <summary>
/// The endpoint's server does not listen for SIGTERM itself (the default console lifetime would): the
/// worker's host decides when it stops, and stops it as one of its hosted services.
/// </summary>
internal sealed class EndpointLifetime : IHostLifetime
{
    public Task WaitForStartAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
}
