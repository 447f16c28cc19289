using System.Security.Cryptography;
using MimeKit;
using MimeKit.Cryptography;

namespace Notifications.IntegrationTests.Sending;

/// <summary>
/// A fresh RSA key for DKIM tests: the private half in a PEM file (as a Docker secret would hold it), the public
/// half served the way DNS would (a <c>v=DKIM1; k=rsa; p=...</c> record), and a verifier that uses it.
/// </summary>
internal sealed class DkimTestKey : DkimPublicKeyLocatorBase, IDisposable
{
    private readonly RSA rsa;

    public DkimTestKey(int bits = 2048, bool pkcs1 = false)
    {
        rsa = RSA.Create(bits);
        PrivateKeyFile = Path.Combine(Path.GetTempPath(), $"dkim-{Guid.NewGuid():N}.pem");
        File.WriteAllText(PrivateKeyFile, pkcs1 ? rsa.ExportRSAPrivateKeyPem() : rsa.ExportPkcs8PrivateKeyPem());
    }

    public string PrivateKeyFile { get; }

    /// <summary>Whether every DKIM-Signature of <paramref name="message"/> verifies against this key (false when there is none).</summary>
    public bool Verifies(MimeMessage message)
    {
        var signatures = message.Headers.Where(h => h.Id == HeaderId.DkimSignature).ToList();
        var verifier = new DkimVerifier(this);
        return signatures.Count > 0 && signatures.All(signature => verifier.Verify(message, signature));
    }

    public override Org.BouncyCastle.Crypto.AsymmetricKeyParameter LocatePublicKey(
        string methods, string domain, string selector, CancellationToken cancellationToken = default) =>
        GetPublicKey("v=DKIM1; k=rsa; p=" + Convert.ToBase64String(rsa.ExportSubjectPublicKeyInfo()));

    public override Task<Org.BouncyCastle.Crypto.AsymmetricKeyParameter> LocatePublicKeyAsync(
        string methods, string domain, string selector, CancellationToken cancellationToken = default) =>
        Task.FromResult(LocatePublicKey(methods, domain, selector, cancellationToken));

    public void Dispose()
    {
        rsa.Dispose();
        File.Delete(PrivateKeyFile);
    }
}
