using System.Security.Cryptography;

namespace Notifications.IntegrationTests.Infrastructure.Receivers;

/// <summary>
/// What the push server trusts, as Google and Apple would hold it: the FCM project and its service account's public
/// RSA key, and the APNs team, key id and public EC P-256 key of the .p8 signing key.
/// </summary>
internal sealed record PushTrust(
    string ProjectId,
    string ClientEmail,
    RSAParameters ServiceAccountPublicKey,
    string TeamId,
    string KeyId,
    ECParameters ApnsPublicKey);
