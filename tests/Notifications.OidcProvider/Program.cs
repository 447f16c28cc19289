using Notifications.OidcProvider;

// A real OpenID Connect provider for the console's tests: discovery, authorization (code + PKCE), token, a login form.
// It prints "listening on <address>" once bound (--urls http://127.0.0.1:0 picks a free port).
var builder = WebApplication.CreateBuilder(args);
builder.AddOidcProvider();
var app = builder.Build();
app.MapOidcProvider();
await ClientRegistration.RegisterAsync(app.Services);
await app.StartAsync();
Console.WriteLine($"listening on {string.Join(' ', app.Urls)}");
await app.WaitForShutdownAsync();
