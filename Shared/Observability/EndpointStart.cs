using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.DependencyInjection;

namespace Notifications.Shared.Observability;

/// <summary>
/// Starts a worker's own small Kestrel server (the operations endpoint, the unsubscribe page) and reads the address it
/// bound (port 0 picks a free one). A port that cannot be bound is the caller's to report: the server is disposed and
/// null returned.
/// </summary>
internal static class EndpointStart
{
    public static async Task<Uri?> StartAsync(WebApplication app, Action<IOException> cannotListen, CancellationToken cancellationToken)
    {
        try
        {
            await app.StartAsync(cancellationToken);
        }
        catch (IOException ex)
        {
            cannotListen(ex);
            await app.DisposeAsync();
            return null;
        }

        return new Uri(app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First());
    }
}
