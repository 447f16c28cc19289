using System.Net;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.Options;
using Notifications.Admin;
using Notifications.Admin.Operations;
using Notifications.OperatorConsole.Authentication;
using Notifications.OperatorConsole.Overview;
using Notifications.Shared.Hosting;
using Notifications.Shared.Observability;

namespace Notifications.OperatorConsole;

/// <summary>
/// DI wiring of the console: the admin tool's operations (as the admin role's database login and broker user), sign-in and
/// policies, Razor Pages with the operator rule on every action, the public port (optional TLS) and the operations endpoint.
/// </summary>
internal static class ConsoleHostingExtensions
{
    /// <summary>The operations endpoint's port (<c>/metrics</c>, <c>/health/*</c>) unless <c>Metrics:Port</c> sets one.</summary>
    public const int MetricsPort = 9468;

    public static WebApplicationBuilder AddConsole(this WebApplicationBuilder builder)
    {
        var services = builder.Services;
        services.AddOptions<ConsoleOptions>().BindConfiguration(ConsoleOptions.SectionName).ValidateDataAnnotations().ValidateOnStart();
        services.AddSingleton<IValidateOptions<ConsoleOptions>, ConsoleOptionsValidator>();
        AdminContext.AddAdminServices(services, "notifications-console");
        services.AddSingleton(sp => new AdminContext(builder.Configuration, sp));
        // Registration needs the value before options exist: read it from configuration as ConsoleOptions binds it.
        bool runJobs = builder.Configuration.GetValue($"{ConsoleOptions.SectionName}:{nameof(ConsoleOptions.RunJobs)}", true);
        services.AddAdminOperations(ReplicaId(), runJobs);
        services.AddSingleton<StatusConnection>();
        services.AddSingleton<WorkerProbe>();
        services.AddSingleton<Pages.DeadLetters.DeadLetterJobQueue>();
        // Ready while the database answers; no meter of its own yet (the runtime's and ASP.NET Core's are exported).
        builder.AddNotificationsServerOperations(MetricsPort, "notifications-console", "Notifications.Console");
        services.AddConsoleAuthentication(builder.Configuration);
        services.AddRazorPages(o => o.Conventions.ConfigureFilter(new OperatorActionFilter()));
        builder.WebHost.ConfigureKestrel((context, kestrel) =>
        {
            var o = kestrel.ApplicationServices.GetRequiredService<IOptions<ConsoleOptions>>().Value;
            kestrel.AddServerHeader = false;
            // A search box pasted full (the issue's 10 KB of bad input, percent-encoded) answers "not found", not 414.
            kestrel.Limits.MaxRequestLineSize = 64 * 1024;
            kestrel.Listen(IPAddress.Parse(o.Address), o.Port, listen =>
            {
                if (o.Https)
                {
                    listen.UseHttps(PublicServerListen.Load(o.Certificate!, o.CertificateKey!));
                }
            });
        });
        return builder;
    }

    public static WebApplication MapConsole(this WebApplication app)
    {
        if (app.Services.GetRequiredService<IOptions<ConsoleOptions>>().Value.Https)
        {
            app.UseHsts();
        }

        app.UseAuthentication();
        app.UseAuthorization();
        // Every page needs a role; the sign-in pages opt out with [AllowAnonymous], and nothing else may.
        app.MapRazorPages().RequireAuthorization(ConsolePolicies.Viewer);
        app.Lifetime.ApplicationStarted.Register(() => LogListening(app));
        return app;
    }

    // A bulk job's lease owner, unique per running console: the host and process, and a random part because one process may
    // host consoles one after the other (the tests) and a stale lease must not pass as the new one's.
    private static string ReplicaId() =>
        FormattableString.Invariant($"console:{Environment.MachineName}:{Environment.ProcessId}:{Guid.NewGuid().ToString("N")[..8]}");

    private static void LogListening(WebApplication app)
    {
        var addresses = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()?.Addresses ?? [];
        var account = app.Services.GetRequiredService<BootstrapAccount>();
        bool oidc = app.Services.GetRequiredService<IOptions<ConsoleOidcOptions>>().Value.Enabled;
        string signIn = (oidc, account.Enabled) switch
        {
            (true, true) => "OpenID Connect and the bootstrap account",
            (true, false) => "OpenID Connect",
            _ => "the bootstrap account",
        };
        ConsoleLog.Listening(app.Services.GetRequiredService<ILoggerFactory>().CreateLogger("Notifications.Console"), string.Join(", ", addresses), signIn);
    }
}
