namespace Notifications.Shared.Data;

/// <summary>
/// The <c>webhook_endpoint</c> table (db/*/018_webhook_endpoints.sql), one implementation per SQL dialect: endpoints added
/// and changed by operators (<c>scripts/admin webhooks</c>) and disabled by the consumer on a 410 Gone, read by every
/// consumer's cache through <see cref="ChangesSinceAsync"/>.
/// </summary>
public interface IWebhookEndpointStore
{
    /// <summary>Adds an endpoint; false when the name is taken (nothing changed).</summary>
    Task<bool> AddAsync(string name, string url, string secret, bool allowPrivate, CancellationToken cancellationToken);

    /// <summary>Every endpoint, by name.</summary>
    Task<IReadOnlyList<WebhookEndpoint>> ListAsync(CancellationToken cancellationToken);

    /// <summary>The endpoint named <paramref name="name"/>, or null.</summary>
    Task<WebhookEndpoint?> FindAsync(string name, CancellationToken cancellationToken);

    /// <summary>Disables an enabled endpoint with <paramref name="reason"/>; false when there is none of that name or it is disabled already.</summary>
    Task<bool> DisableAsync(string name, string reason, CancellationToken cancellationToken);

    /// <summary>Enables a disabled endpoint; false when there is none of that name or it is enabled already.</summary>
    Task<bool> EnableAsync(string name, CancellationToken cancellationToken);

    /// <summary>
    /// Makes <paramref name="secret"/> the endpoint's secret; the one it had keeps signing for <paramref name="overlap"/>
    /// (from the database's now). False when there is no endpoint of that name.
    /// </summary>
    Task<bool> RotateSecretAsync(string name, string secret, TimeSpan overlap, CancellationToken cancellationToken);

    /// <summary>The rows changed at or after <paramref name="since"/>; with null, every row (a full load).</summary>
    Task<IReadOnlyList<WebhookEndpoint>> ChangesSinceAsync(DateTimeOffset? since, CancellationToken cancellationToken);
}
