using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Hosting;
using Notifications.Gateway;
using Notifications.Shared.Hosting;

if (WorkerCommandLine.PrintedHelp(args, "Gateway", "apps' live connections (WebSocket): pending notifications in order, acked by id", "Database, Gateway, Logging, Serilog"))
{
    return 0;
}

var builder = Host.CreateApplicationBuilder(args);
// Docker secrets: /run/secrets/Gateway__TokenKey becomes Gateway:TokenKey (and wins over env vars).
builder.Configuration.AddKeyPerFile("/run/secrets", optional: true);
builder.AddNotificationsLogging();
builder.AddGateway();
return await WorkerCommandLine.RunAsync(builder.Build());
