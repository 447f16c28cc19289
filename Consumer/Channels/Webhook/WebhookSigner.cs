using System.Collections.Concurrent;
using StandardWebhooks;

namespace Notifications.Consumer.Channels.Webhook;

/// <summary>
/// The <c>webhook-signature</c> header: <c>v1,</c> + base64 HMAC-SHA256 of <c>{id}.{timestamp}.{body}</c>, one per signing
/// secret, space-separated (two during a rotation's overlap), made by the StandardWebhooks package. The signers are kept by
/// secret: the key is decoded once, not per request.
/// </summary>
internal sealed class WebhookSigner
{
    private readonly ConcurrentDictionary<string, StandardWebhook> _bySecret = new(StringComparer.Ordinal);

    public string Sign(IReadOnlyList<string> secrets, string id, DateTimeOffset timestamp, string body)
    {
        if (secrets.Count == 1)
        {
            return For(secrets[0]).Sign(id, timestamp, body);
        }

        var signatures = new string[secrets.Count];
        for (int i = 0; i < secrets.Count; i++)
        {
            signatures[i] = For(secrets[i]).Sign(id, timestamp, body);
        }

        return string.Join(' ', signatures);
    }

    /// <summary>Forgets the signers of secrets no endpoint uses any more (after a rotation's overlap).</summary>
    public void Retain(IReadOnlySet<string> secrets)
    {
        foreach (string secret in _bySecret.Keys)
        {
            if (!secrets.Contains(secret))
            {
                _bySecret.TryRemove(secret, out _);
            }
        }
    }

    private StandardWebhook For(string secret) => _bySecret.GetOrAdd(secret, static s => new StandardWebhook(s));
}
