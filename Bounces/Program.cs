using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Hosting;
using Notifications.Bounces;
using Notifications.Shared.Hosting;
using Notifications.Shared.Observability;

// Container healthcheck (the runtime image has no curl): ask the running process's operations endpoint, exit 0 or 1.
if (HealthProbe.IsRequested(args))
{
    return await HealthProbe.RunAsync(args, defaultPort: BounceReceiverHostingExtensions.MetricsPort);
}

if (WorkerCommandLine.PrintedHelp(args, "Bounces", "the bounce receiver: inbound SMTP for the bounce domain, DSNs and ARF complaints to suppression entries and outcomes", "Database, Bounces, Metrics, Logging, Serilog"))
{
    return 0;
}

var builder = Host.CreateApplicationBuilder(args);
// Docker secrets: /run/secrets/Bounces__Keys__0__Secret becomes Bounces:Keys:0:Secret (and wins over env vars).
builder.Configuration.AddKeyPerFile("/run/secrets", optional: true);
builder.AddNotificationsLogging();
builder.AddBounceReceiver();
return await WorkerCommandLine.RunAsync(builder.Build());
