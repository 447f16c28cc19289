using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Hosting;
using Notifications.Gateway;
using Notifications.Shared.Hosting;
using Notifications.Shared.Observability;

// Container healthcheck (the runtime image has no curl): ask the running process's operations endpoint, exit 0 or 1.
if (HealthProbe.IsRequested(args))
{
    return await HealthProbe.RunAsync(args, defaultPort: GatewayHostingExtensions.MetricsPort);
}

if (WorkerCommandLine.PrintedHelp(args, "Gateway", "apps' live connections (WebSocket): pending notifications in order, acked by id", "Database, RabbitMq, Gateway, Metrics, Logging, Serilog"))
{
    return 0;
}

var builder = Host.CreateApplicationBuilder(args);
// Docker secrets: /run/secrets/Gateway__TokenKey becomes Gateway:TokenKey (and wins over env vars).
builder.Configuration.AddKeyPerFile("/run/secrets", optional: true);
builder.AddNotificationsLogging();
builder.AddGateway();
return await WorkerCommandLine.RunAsync(builder.Build());
