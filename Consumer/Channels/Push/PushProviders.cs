using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Notifications.Consumer.Channels.Push.Apns;
using Notifications.Consumer.Channels.Push.Fcm;
using Notifications.Consumer.Relay;
using Notifications.Consumer.Telemetry;

namespace Notifications.Consumer.Channels.Push;

/// <summary>
/// The two push providers of this process, each with its HTTP/2 client (from <see cref="IHttpClientFactory"/>), credentials
/// (when configured) and breaker, built once and shared by every handler.
/// </summary>
internal sealed class PushProviders : IDisposable
{
    private readonly FcmAccessTokens? _fcmTokens;
    private readonly ApnsProviderToken? _apnsToken;

    public PushProviders(
        IOptions<PushOptions> options, IOptions<RelayOptions> relay, IHttpClientFactory clients, ConsumerMetrics metrics, TimeProvider time, ILogger<PushProviders> logger)
    {
        var push = options.Value;
        ProviderLink Link(string name, Uri baseUrl, string client) => ProviderLink.For(baseUrl, clients.CreateClient(client),
            new RelayBreaker($"push:{name}", relay.Value, gated: false, metrics, time, logger), time);

        if (push.Fcm.Enabled && FcmServiceAccount.TryLoad(push.Fcm, out _) is { } account)
        {
            _fcmTokens = new FcmAccessTokens(account, account.TokenUrl(push.Fcm), () => clients.CreateClient(FcmProvider.TokenClientName), time);
        }

        _apnsToken = push.Apns.Enabled ? new ApnsProviderToken(push.Apns, time) : null;
        Fcm = new FcmProvider(push.Fcm, Link("fcm", push.Fcm.BaseUrl, FcmProvider.ClientName), _fcmTokens, time);
        Apns = new ApnsProvider(push.Apns, Link("apns", push.Apns.BaseUrl, ApnsProvider.ClientName), _apnsToken);
        PushSendingLog.Providers(logger, push.Fcm.Enabled ? push.Fcm.BaseUrl.ToString() : "off", push.Apns.Enabled ? push.Apns.BaseUrl.ToString() : "off");
        if (!string.IsNullOrEmpty(push.TrustedCertificateFile))
        {
            PushSendingLog.DeprecatedTrustKey(logger, push.TrustKey == PushOptions.DeprecatedTrustKey ? "used" : "ignored: Push:TrustedCertificatesFile is set");
        }
    }

    public IPushProvider Fcm { get; }

    public IPushProvider Apns { get; }

    /// <summary>The provider named <paramref name="name"/> (<c>fcm</c> or <c>apns</c>, as PushRules checked).</summary>
    public IPushProvider For(string name) => name == Apns.Name ? Apns : Fcm;

    public void Dispose()
    {
        _fcmTokens?.Dispose();
        _apnsToken?.Dispose();
    }
}
