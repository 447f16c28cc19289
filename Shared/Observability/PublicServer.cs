using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace Notifications.Shared.Observability;

/// <summary>
/// A worker's public server of its own beside its host (the unsubscribe page, the live gateway): a Kestrel-only
/// <see cref="WebApplication"/> whose log goes to the worker's (warnings of the server itself only), started with the
/// host and stopped with it. A subclass builds it (<see cref="CreateBuilder"/>), maps its routes and starts it with
/// <see cref="ListenAsync"/>.
/// </summary>
internal abstract class PublicServer : IHostedService, IAsyncDisposable
{
    private WebApplication? _app;

    /// <summary>The bound address, e.g. <c>https://0.0.0.0:8443</c>, once started.</summary>
    public Uri? Address { get; private set; }

    /// <summary>Every bound address, in the order the endpoints were configured, once started.</summary>
    public IReadOnlyList<Uri> Addresses { get; private set; } = [];

    public abstract Task StartAsync(CancellationToken cancellationToken);

    public async Task StopAsync(CancellationToken cancellationToken)
    {
        if (_app is not null)
        {
            await _app.StopAsync(cancellationToken);
        }
    }

    public async ValueTask DisposeAsync()
    {
        if (_app is not null)
        {
            await _app.DisposeAsync();
        }
    }

    /// <summary>An empty Kestrel application with the worker's log, its own lifetime and routing.</summary>
    protected static WebApplicationBuilder CreateBuilder(ILoggerFactory loggers)
    {
        var builder = WebApplication.CreateEmptyBuilder(new WebApplicationOptions());
        builder.Logging.ClearProviders().AddProvider(new ForwardingLoggerProvider(loggers))
            .AddFilter("Microsoft.AspNetCore", LogLevel.Warning).AddFilter("Microsoft.Hosting", LogLevel.Warning);
        builder.Services.AddSingleton<IHostLifetime, EndpointLifetime>();
        builder.Services.AddRouting();
        builder.WebHost.UseKestrelCore();
        return builder;
    }

    /// <summary>
    /// Starts <paramref name="app"/>; a port that cannot be bound stops the worker (answering there is all it is for), after
    /// <paramref name="cannotListen"/> logged it.
    /// </summary>
    protected async Task<Uri> ListenAsync(WebApplication app, Action<IOException> cannotListen, CancellationToken cancellationToken)
    {
        IOException? failure = null;
        var bound = await EndpointStart.StartAsync(app, ex =>
        {
            failure = ex;
            cannotListen(ex);
        }, cancellationToken);
        if (bound is null)
        {
            System.Runtime.ExceptionServices.ExceptionDispatchInfo.Throw(failure!);
        }

        _app = app;
        Address = bound;
        Addresses = [.. app.Services.GetRequiredService<Microsoft.AspNetCore.Hosting.Server.IServer>()
            .Features.Get<Microsoft.AspNetCore.Hosting.Server.Features.IServerAddressesFeature>()!.Addresses.Select(a => new Uri(a))];
        return bound!;
    }
}
