using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Hosting;
using Notifications.Producer;
using Notifications.Shared.Hosting;

var builder = Host.CreateApplicationBuilder(args);
// Docker secrets: /run/secrets/Database__ConnectionString becomes Database:ConnectionString (and wins over env vars).
builder.Configuration.AddKeyPerFile("/run/secrets", optional: true);
builder.AddNotificationsLogging();
builder.AddProducer();
await builder.Build().RunAsync();
