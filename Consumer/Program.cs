using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Hosting;
using Notifications.Consumer;
using Notifications.Shared.Hosting;

var builder = Host.CreateApplicationBuilder(args);
// Docker secrets: /run/secrets/Database__ConnectionString becomes Database:ConnectionString (and wins over env vars).
builder.Configuration.AddKeyPerFile("/run/secrets", optional: true);
builder.AddNotificationsLogging();
builder.AddConsumer();
await builder.Build().RunAsync();
