namespace Notifications.OidcProvider;

/// <summary>A user of the provider: the name, the password its login form takes, and the role its ID token carries.</summary>
internal sealed class ProviderUser
{
    public string Name { get; set; } = "";

    public string Password { get; set; } = "";

    public string Role { get; set; } = "";
}
