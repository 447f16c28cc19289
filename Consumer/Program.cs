using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Hosting;
using Notifications.Consumer;
using Notifications.Shared.Hosting;
using Notifications.Shared.Observability;

// Container healthcheck (the runtime image has no curl): ask the running worker's endpoint, exit 0 or 1.
if (HealthProbe.IsRequested(args))
{
    return await HealthProbe.RunAsync(args, defaultPort: 9465);
}

if (WorkerCommandLine.PrintedHelp(args, "Consumer", "competing handlers that deliver notifications from RabbitMQ over SMTP", "Database, RabbitMq, Consumer, Smtp, RateLimits, Suppression, Unsubscribe, Metrics, Logging, Serilog"))
{
    return 0;
}

var builder = Host.CreateApplicationBuilder(args);
// Docker secrets: /run/secrets/Database__ConnectionString becomes Database:ConnectionString (and wins over env vars).
builder.Configuration.AddKeyPerFile("/run/secrets", optional: true);
builder.AddNotificationsLogging();
builder.AddConsumer();
return await WorkerCommandLine.RunAsync(builder.Build());
