namespace Notifications.OidcProvider;

/// <summary>The one client (the console) and the users the provider knows (section <c>Provider</c>; the tests pass them as arguments).</summary>
internal sealed class ProviderOptions
{
    public const string SectionName = "Provider";

    public string ClientId { get; set; } = "notifications-console";

    public string ClientSecret { get; set; } = "";

    /// <summary>The console's callback, e.g. <c>http://127.0.0.1:PORT/signin-oidc</c>: the only redirect URI accepted.</summary>
    public string RedirectUri { get; set; } = "";

    public List<ProviderUser> Users { get; set; } = [];
}
