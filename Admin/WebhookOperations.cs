using System.Net;
using System.Net.Sockets;
using System.Security.Cryptography;
using Notifications.Shared.Contract;
using Notifications.Shared.Data;
using Notifications.Shared.Outcomes;

namespace Notifications.Admin;

/// <summary>
/// The webhook endpoints' operations as both the command line (<see cref="WebhookCommands"/>) and the operators' console run
/// them. A new secret comes back to the caller to show once (<see cref="NewSecret"/>); nothing here logs or keeps it elsewhere.
/// Each failure is an <see cref="AdminException"/> whose message says why.
/// </summary>
internal static class WebhookOperations
{
    /// <summary>A secret made by add or rotate-secret, and what happened in words (without the secret).</summary>
    public sealed record NewSecret(string Message, string Secret);

    public static async Task<NewSecret> AddAsync(AdminContext admin, string name, string url, bool allowPrivate, CancellationToken cancellationToken)
    {
        CheckName(name);
        var checkedUrl = await CheckUrlAsync(url, allowPrivate, cancellationToken);
        string secret = MakeSecret();
        if (!await admin.DatabaseAsync(() => admin.WebhookEndpoints.AddAsync(name, url, secret, allowPrivate, cancellationToken)))
        {
            throw new AdminException($"a webhook endpoint named '{name}' exists already ('webhooks list' shows it)", ExitCodes.Failed);
        }

        return new NewSecret($"Added webhook endpoint {name} -> {WebhookUrlRedaction.Redact(checkedUrl)}{(allowPrivate ? " (private addresses allowed)" : "")}.", secret);
    }

    public static async Task<NewSecret> RotateSecretAsync(AdminContext admin, string name, TimeSpan overlap, CancellationToken cancellationToken)
    {
        CheckName(name);
        string secret = MakeSecret();
        if (!await admin.DatabaseAsync(() => admin.WebhookEndpoints.RotateSecretAsync(name, secret, overlap, cancellationToken)))
        {
            throw Unknown(name);
        }

        return new NewSecret($"Rotated the secret of webhook endpoint {name}; the previous one signs too for {overlap}.", secret);
    }

    public static Task<string> DisableAsync(AdminContext admin, string name, string reason, CancellationToken cancellationToken) =>
        SwitchAsync(admin, name, "Disabled", "disabled already", store => store.DisableAsync(name, reason, cancellationToken), cancellationToken);

    public static Task<string> EnableAsync(AdminContext admin, string name, CancellationToken cancellationToken) =>
        SwitchAsync(admin, name, "Enabled", "enabled already", store => store.EnableAsync(name, cancellationToken), cancellationToken);

    /// <summary>
    /// Subscribes the endpoint to outcome event types (docs/outcome-events.md); consumers see it within
    /// <c>Webhooks:RefreshInterval</c>. A type it takes already is said, not an error.
    /// </summary>
    public static Task<string> SubscribeAsync(AdminContext admin, string name, IReadOnlyList<string> types, CancellationToken cancellationToken) =>
        ChangeSubscriptionsAsync(admin, name, types, "Subscribed", "subscribed already", (e, t) => admin.OutcomeEvents.SubscribeAsync(e, t, cancellationToken), cancellationToken);

    /// <summary>Ends the endpoint's subscriptions to those types; one it did not have is said, not an error.</summary>
    public static Task<string> UnsubscribeAsync(AdminContext admin, string name, IReadOnlyList<string> types, CancellationToken cancellationToken) =>
        ChangeSubscriptionsAsync(admin, name, types, "Unsubscribed", "not subscribed", (e, t) => admin.OutcomeEvents.UnsubscribeAsync(e, t, cancellationToken), cancellationToken);

    /// <summary>Each endpoint's subscribed event types.</summary>
    public static async Task<ILookup<string, string>> SubscriptionsAsync(AdminContext admin, CancellationToken cancellationToken) =>
        (await admin.DatabaseAsync(() => admin.OutcomeEvents.ListSubscriptionsAsync(cancellationToken))).ToLookup(s => s.Endpoint, s => s.EventType);

    /// <summary>The URL's path and query may hold the receiver's token: shown as scheme, host and port only, like a secret.</summary>
    public static string Shown(string url) => Uri.TryCreate(url, UriKind.Absolute, out var parsed) ? WebhookUrlRedaction.Redact(parsed) : "(not a URL)";

    // Disable or enable: the change, or why there was none (no such endpoint, or it is in that state already).
    private static async Task<string> SwitchAsync(
        AdminContext admin, string name, string done, string already, Func<IWebhookEndpointStore, Task<bool>> change, CancellationToken cancellationToken)
    {
        CheckName(name);
        if (!await admin.DatabaseAsync(() => change(admin.WebhookEndpoints)))
        {
            throw await admin.DatabaseAsync(() => admin.WebhookEndpoints.FindAsync(name, cancellationToken)) is null
                ? Unknown(name)
                : new AdminException($"webhook endpoint '{name}' is {already}; nothing changed", ExitCodes.Failed);
        }

        return $"{done} webhook endpoint {name}.";
    }

    private static async Task<string> ChangeSubscriptionsAsync(
        AdminContext admin, string name, IReadOnlyList<string> types, string done, string unchanged, Func<string, string, Task<bool>> change,
        CancellationToken cancellationToken)
    {
        CheckName(name);
        if (types.Count == 0 || types.Any(t => !OutcomeEventTypes.IsKnown(t)))
        {
            string given = types.Count == 0 ? "no event type given" : $"unknown event type '{types.First(t => !OutcomeEventTypes.IsKnown(t))}'";
            throw new AdminException($"{given}: name one or more of {string.Join(", ", OutcomeEventTypes.All)}", ExitCodes.Usage);
        }

        if (await admin.DatabaseAsync(() => admin.WebhookEndpoints.FindAsync(name, cancellationToken)) is null)
        {
            throw Unknown(name);
        }

        var changed = new List<string>();
        var same = new List<string>();
        foreach (string type in types.Distinct(StringComparer.Ordinal))
        {
            (await admin.DatabaseAsync(() => change(name, type)) ? changed : same).Add(type);
        }

        string said = changed.Count == 0 ? $"Nothing changed for webhook endpoint {name}" : $"{done} webhook endpoint {name}: {string.Join(", ", changed)}";
        return same.Count == 0 ? said + "." : $"{said}; {unchanged}: {string.Join(", ", same)}.";
    }

    // The command line's parser checked it already; the console's form did not.
    private static void CheckName(string name)
    {
        if (WebhookRules.ValidateEndpointName(name) is { } invalid)
        {
            throw new AdminException(invalid, ExitCodes.Usage);
        }
    }

    // At registration: the URL's form, then where its host resolves to now (the consumer checks again at every connection).
    private static async Task<Uri> CheckUrlAsync(string url, bool allowPrivate, CancellationToken cancellationToken)
    {
        if (WebhookUrlRules.Validate(url, allowPrivate, out var uri) is { } invalid)
        {
            throw new AdminException(invalid, ExitCodes.Usage);
        }

        IPAddress[] addresses;
        try
        {
            addresses = IPAddress.TryParse(uri!.IdnHost, out var literal) ? [literal] : await Dns.GetHostAddressesAsync(uri.IdnHost, cancellationToken);
        }
        catch (SocketException ex)
        {
            throw new AdminException($"webhook host '{uri!.IdnHost}' does not resolve: {ex.Message}", ExitCodes.Usage, ex);
        }

        if (WebhookUrlRules.CheckAddresses(uri.IdnHost, addresses, allowPrivate) is { } refused)
        {
            throw new AdminException(refused, ExitCodes.Usage);
        }

        return uri;
    }

    private static AdminException Unknown(string name) =>
        new($"no webhook endpoint is named '{name}' ('webhooks list' shows them)", ExitCodes.Failed);

    // Standard Webhooks' form: whsec_ and a base64 key of 24 to 64 random bytes; 32 as HMAC-SHA256's block-friendly size.
    private static string MakeSecret() => "whsec_" + Convert.ToBase64String(RandomNumberGenerator.GetBytes(32));
}
