namespace Notifications.IntegrationTests.WebConsole;

/// <summary>A user of the tests' OpenID Connect provider: name, password, and the role its ID token carries.</summary>
internal sealed record ProviderAccount(string Name, string Password, string Role);
