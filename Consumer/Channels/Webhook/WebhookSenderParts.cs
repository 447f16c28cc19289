using Microsoft.Extensions.Logging;
using Notifications.Consumer.RateLimiting;
using Notifications.Shared.Data;

namespace Notifications.Consumer.Channels.Webhook;

/// <summary>What every webhook sender shares: the process's pauses, limiter, signer, endpoint cache and store.</summary>
internal sealed record WebhookSenderParts(
    WebhookOptions Options, RetryAfterPauses Pauses, FleetRateLimiter Limiter, RateLimitSettings RateLimits, WebhookSigner Signer,
    WebhookEndpoints Endpoints, IWebhookEndpointStore Store, TimeProvider Time, ILogger Logger);
