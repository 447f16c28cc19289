using System.Security.Cryptography;
using System.Text.Json;
using Notifications.IntegrationTests.Infrastructure.Receivers;

namespace Notifications.Harness;

/// <summary>
/// A push run's keys as files in its directory: the FCM service account (JSON, as Google's console writes it, its
/// <c>token_uri</c> the receiver's) and the APNs signing key (.p8) with its team and key ids. The consumer is configured with
/// them (<see cref="ConsumerVariables"/>) and the receiver process trusts their public halves (<see cref="ReadTrust"/>).
/// </summary>
internal static class PushKeyFiles
{
    public const string ServiceAccountFile = "fcm-service-account.json";
    public const string ApnsKeyFile = "apns-key.p8";
    public const string ApnsIdsFile = "apns-key-ids.json";

    public static void Write(PushTestKeys keys, string directory, int port)
    {
        File.WriteAllText(Path.Combine(directory, ServiceAccountFile), keys.ServiceAccountJson(ReceiverUrls.Token(port)));
        File.WriteAllText(Path.Combine(directory, ApnsKeyFile), keys.ApnsKeyPem);
        File.WriteAllText(Path.Combine(directory, ApnsIdsFile), JsonSerializer.Serialize(new ApnsIds(keys.TeamId, keys.KeyId)));
    }

    /// <summary>What the push server trusts of the keys in <paramref name="directory"/>: the project, and the public keys.</summary>
    public static PushTrust ReadTrust(string directory)
    {
        using var account = JsonDocument.Parse(File.ReadAllText(Path.Combine(directory, ServiceAccountFile)));
        var root = account.RootElement;
        using var rsa = RSA.Create();
        rsa.ImportFromPem(root.GetProperty("private_key").GetString());
        using var ec = ECDsa.Create();
        ec.ImportFromPem(File.ReadAllText(Path.Combine(directory, ApnsKeyFile)));
        var ids = JsonSerializer.Deserialize<ApnsIds>(File.ReadAllText(Path.Combine(directory, ApnsIdsFile)))
            ?? throw new InvalidOperationException($"{ApnsIdsFile} is empty");
        return new PushTrust(root.GetProperty("project_id").GetString()!, root.GetProperty("client_email").GetString()!,
            rsa.ExportParameters(false), ids.TeamId, ids.KeyId, ec.ExportParameters(false));
    }

    /// <summary>
    /// The consumer's push options (Push:Fcm:*, Push:Apns:*) pointing at the receiver on <paramref name="port"/> with the keys
    /// in <paramref name="directory"/>, and its certificate as the only one trusted (docs/push.md's configuration table).
    /// </summary>
    public static Dictionary<string, string> ConsumerVariables(PushTestKeys keys, string directory, int port) => new(StringComparer.Ordinal)
    {
        ["Push__Fcm__BaseUrl"] = ReceiverUrls.Fcm(port).ToString(),
        ["Push__Fcm__TokenUrl"] = ReceiverUrls.Token(port).ToString(),
        ["Push__Fcm__ProjectId"] = keys.ProjectId,
        ["Push__Fcm__CredentialsFile"] = Path.Combine(directory, ServiceAccountFile),
        ["Push__Apns__BaseUrl"] = ReceiverUrls.Apns(port).ToString(),
        ["Push__Apns__KeyId"] = keys.KeyId,
        ["Push__Apns__TeamId"] = keys.TeamId,
        ["Push__Apns__PrivateKeyFile"] = Path.Combine(directory, ApnsKeyFile),
        ["Push__Apns__Topic"] = BenchChannel.ApnsTopic,
        // The push clients trust only this PEM (the receiver's self-signed certificate, written when it starts); SSL_CERT_FILE too.
        ["Push__TrustedCertificatesFile"] = Path.Combine(directory, ReceiverCommand.CertificateFile),
    };

    private sealed record ApnsIds(string TeamId, string KeyId);
}
