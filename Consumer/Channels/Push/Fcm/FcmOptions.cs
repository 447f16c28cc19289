using System.ComponentModel.DataAnnotations;

namespace Notifications.Consumer.Channels.Push.Fcm;

/// <summary>FCM HTTP v1 (section <c>Push:Fcm</c>): on when <see cref="CredentialsFile"/> is set.</summary>
public sealed class FcmOptions
{
    /// <summary>The Firebase project id (<c>v1/projects/{id}/messages:send</c>); default the service account's <c>project_id</c>.</summary>
    public string? ProjectId { get; set; }

    /// <summary>The service account's JSON key file as the Firebase console downloads it (a Docker secret, say).</summary>
    public string? CredentialsFile { get; set; }

    /// <summary>The FCM API's base URL.</summary>
    public Uri BaseUrl { get; set; } = new("https://fcm.googleapis.com/");

    /// <summary>The OAuth2 token endpoint; default the service account's <c>token_uri</c>.</summary>
    public Uri? TokenUrl { get; set; }

    /// <summary>Whether FCM is configured.</summary>
    public bool Enabled => !string.IsNullOrEmpty(CredentialsFile);

    internal IEnumerable<ValidationResult> Validate()
    {
        if (!Enabled)
        {
            yield break;
        }

        if (!BaseUrl.IsAbsoluteUri || BaseUrl.Scheme != Uri.UriSchemeHttps)
        {
            yield return new ValidationResult($"Push:Fcm:BaseUrl '{BaseUrl}' must be an absolute https URL.", [nameof(BaseUrl)]);
        }

        // The key is read now, so a missing or wrong file stops the worker at start with the reason instead of failing every send.
        if (FcmServiceAccount.TryLoad(this, out string? error) is null)
        {
            yield return new ValidationResult($"Push:Fcm:CredentialsFile '{CredentialsFile}' cannot be used: {error}", [nameof(CredentialsFile)]);
        }
    }
}
