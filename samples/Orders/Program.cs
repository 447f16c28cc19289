using Microsoft.EntityFrameworkCore;
using Notifications.Samples.Orders;
using Npgsql;

var builder = WebApplication.CreateBuilder(args);
string connectionString = builder.Configuration.GetConnectionString("Orders")
    ?? throw new InvalidOperationException("Set ConnectionStrings:Orders (env ConnectionStrings__Orders): the database holding the notifications outbox.");
builder.Services.AddSingleton(NpgsqlDataSource.Create(connectionString));
builder.Services.AddDbContext<OrdersContext>(options => options.UseNpgsql(connectionString));
builder.Services.AddSingleton(new OutboxSchema(builder.Configuration["Notifications:Schema"] ?? "notifications"));

var app = builder.Build();
await OrderTable.EnsureAsync(app.Services.GetRequiredService<NpgsqlDataSource>());
app.MapPost("/orders", AdoOrderEndpoint.PlaceAsync);
app.MapPost("/ef/orders", EfOrderEndpoint.PlaceAsync);
await app.RunAsync();
