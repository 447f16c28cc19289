using System.Text.Json.Serialization;
using Microsoft.EntityFrameworkCore;
using Notifications.Client;
using Notifications.Samples.Orders;
using Npgsql;

var builder = WebApplication.CreateBuilder(args);
string connectionString = builder.Configuration.GetConnectionString("Orders")
    ?? throw new InvalidOperationException("Set ConnectionStrings:Orders (env ConnectionStrings__Orders): the database holding the notifications outbox.");
string schema = builder.Configuration["Notifications:Schema"] ?? "notifications";
builder.Services.AddSingleton(NpgsqlDataSource.Create(connectionString));
// One pool for the orders and the notifications: INotificationOutbox enqueues in the app's transactions.
builder.Services.AddNotificationsClient(options =>
{
    options.UsePostgreSql(sp => sp.GetRequiredService<NpgsqlDataSource>());
    options.Schema = schema;
});
// AddNotification on this context joins its SaveChangesAsync.
builder.Services.AddDbContext<OrdersContext>(options => options.UseNpgsql(connectionString).UseNotificationsOutbox(schema));
builder.Services.ConfigureHttpJsonOptions(options => options.SerializerOptions.Converters.Add(new JsonStringEnumConverter()));

var app = builder.Build();
await OrderTable.EnsureAsync(app.Services.GetRequiredService<NpgsqlDataSource>());
app.MapPost("/orders", AdoOrderEndpoint.PlaceAsync);
app.MapPost("/ef/orders", EfOrderEndpoint.PlaceAsync);
app.MapGet("/notifications/{id:long}", async (long id, INotificationOutbox outbox, CancellationToken ct) => Results.Ok(await outbox.GetStatusAsync(id, ct)));
await app.RunAsync();
