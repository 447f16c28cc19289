using System.Security.Cryptography;
using System.Text.Json;
using System.Text.Json.Serialization;

namespace Notifications.Consumer.Channels.Push.Fcm;

/// <summary>What the consumer reads of a service account's JSON key file: its email, key, project and token endpoint.</summary>
internal sealed record FcmServiceAccount(
    [property: JsonPropertyName("client_email")] string? ClientEmail,
    [property: JsonPropertyName("private_key")] string? PrivateKey,
    [property: JsonPropertyName("private_key_id")] string? PrivateKeyId,
    [property: JsonPropertyName("project_id")] string? ProjectId,
    [property: JsonPropertyName("token_uri")] string? TokenUri)
{
    /// <summary>Google's token endpoint, when neither the options nor the file name one.</summary>
    public static readonly Uri DefaultTokenUrl = new("https://oauth2.googleapis.com/token");

    /// <summary>Reads and checks the file <paramref name="options"/> name; null and why when it cannot be used.</summary>
    public static FcmServiceAccount? TryLoad(FcmOptions options, out string? error)
    {
        try
        {
            var account = JsonSerializer.Deserialize<FcmServiceAccount>(File.ReadAllText(options.CredentialsFile!));
            error = account switch
            {
                null => "it is not a JSON object",
                { ClientEmail: null or "" } => "it has no client_email (is it a service account's key file?)",
                { PrivateKey: null or "" } => "it has no private_key",
                _ when string.IsNullOrEmpty(options.ProjectId ?? account.ProjectId) => "it has no project_id, and Push:Fcm:ProjectId is not set",
                _ => CheckKey(account.PrivateKey),
            };
            return error is null ? account : null;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or JsonException)
        {
            error = ex.Message;
            return null;
        }
    }

    /// <summary>The token endpoint: the options', else the file's, else Google's.</summary>
    public Uri TokenUrl(FcmOptions options) =>
        options.TokenUrl ?? (Uri.TryCreate(TokenUri, UriKind.Absolute, out var uri) ? uri : DefaultTokenUrl);

    private static string? CheckKey(string pem)
    {
        try
        {
            using var rsa = RSA.Create();
            rsa.ImportFromPem(pem);
            return rsa.KeySize >= 2048 ? null : $"its private_key is RSA {rsa.KeySize} bits; Google issues 2048";
        }
        catch (Exception ex) when (ex is ArgumentException or CryptographicException)
        {
            return $"its private_key is not an RSA key in PEM: {ex.Message}";
        }
    }
}
