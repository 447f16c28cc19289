using Notifications.OperatorConsole;
using Notifications.Shared.Hosting;
using Notifications.Shared.Observability;

// Container healthcheck (the runtime image has no curl): ask the running process's operations endpoint, exit 0 or 1.
if (HealthProbe.IsRequested(args))
{
    return await HealthProbe.RunAsync(args, defaultPort: ConsoleHostingExtensions.MetricsPort);
}

if (WorkerCommandLine.PrintedHelp(args, "Console", "the operators' web console: server-rendered pages over the admin tool's operations", "Database, RabbitMq, Console, Metrics, Logging, Serilog"))
{
    return 0;
}

var builder = WebApplication.CreateBuilder(args);
// Docker secrets: /run/secrets/Console__Oidc__ClientSecret becomes Console:Oidc:ClientSecret (and wins over env vars).
builder.Configuration.AddKeyPerFile("/run/secrets", optional: true);
builder.AddNotificationsLogging();
builder.AddConsole();
var app = builder.Build();
app.MapConsole();
return await WorkerCommandLine.RunAsync(app);
