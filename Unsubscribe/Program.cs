using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Hosting;
using Notifications.Shared.Hosting;
using Notifications.Shared.Observability;
using Notifications.Unsubscribe;

// Container healthcheck (the runtime image has no curl): ask the running process's operations endpoint, exit 0 or 1.
if (HealthProbe.IsRequested(args))
{
    return await HealthProbe.RunAsync(args, defaultPort: UnsubscribeServerHostingExtensions.MetricsPort);
}

if (WorkerCommandLine.PrintedHelp(args, "Unsubscribe", "the unsubscribe page and one-click POST (RFC 8058) of bulk mail's links, on a port of its own", "Database, Unsubscribe, Metrics, Logging, Serilog"))
{
    return 0;
}

var builder = Host.CreateApplicationBuilder(args);
// Docker secrets: /run/secrets/Unsubscribe__Keys__2026-11 becomes Unsubscribe:Keys:2026-11 (and wins over env vars).
builder.Configuration.AddKeyPerFile("/run/secrets", optional: true);
builder.AddNotificationsLogging();
builder.AddUnsubscribeServer();
return await WorkerCommandLine.RunAsync(builder.Build());
