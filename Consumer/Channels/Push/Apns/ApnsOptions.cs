using System.ComponentModel.DataAnnotations;

namespace Notifications.Consumer.Channels.Push.Apns;

/// <summary>APNs with token-based authentication (section <c>Push:Apns</c>): on when <see cref="PrivateKeyFile"/> is set.</summary>
public sealed class ApnsOptions
{
    /// <summary>The signing key's id (10 characters, from the Apple developer account): the provider token's <c>kid</c>.</summary>
    public string? KeyId { get; set; }

    /// <summary>The team id (10 characters): the provider token's <c>iss</c>.</summary>
    public string? TeamId { get; set; }

    /// <summary>The signing key as Apple hands it out: a .p8 file (PKCS#8 PEM, EC P-256).</summary>
    public string? PrivateKeyFile { get; set; }

    /// <summary>The app's bundle id, sent as <c>apns-topic</c>.</summary>
    public string? Topic { get; set; }

    /// <summary>The APNs base URL: production, or <c>https://api.sandbox.push.apple.com/</c> for development builds.</summary>
    public Uri BaseUrl { get; set; } = new("https://api.push.apple.com/");

    /// <summary>Whether APNs is configured.</summary>
    public bool Enabled => !string.IsNullOrEmpty(PrivateKeyFile);

    internal IEnumerable<ValidationResult> Validate()
    {
        if (!Enabled)
        {
            yield break;
        }

        if (string.IsNullOrWhiteSpace(KeyId) || string.IsNullOrWhiteSpace(TeamId) || string.IsNullOrWhiteSpace(Topic))
        {
            yield return new ValidationResult("Push:Apns:KeyId, Push:Apns:TeamId and Push:Apns:Topic are required with Push:Apns:PrivateKeyFile.",
                [nameof(KeyId), nameof(TeamId), nameof(Topic)]);
        }

        if (!BaseUrl.IsAbsoluteUri || BaseUrl.Scheme != Uri.UriSchemeHttps)
        {
            yield return new ValidationResult($"Push:Apns:BaseUrl '{BaseUrl}' must be an absolute https URL.", [nameof(BaseUrl)]);
        }

        if (ApnsProviderToken.TryLoadKey(PrivateKeyFile!, out string? error) is not { } key)
        {
            yield return new ValidationResult($"Push:Apns:PrivateKeyFile '{PrivateKeyFile}' cannot be used: {error}", [nameof(PrivateKeyFile)]);
        }
        else
        {
            key.Dispose();
        }
    }
}
