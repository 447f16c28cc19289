using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Mvc;
using Notifications.Admin;
using Notifications.Shared.Data;

namespace Notifications.OperatorConsole.Pages.Webhooks;

/// <summary>
/// Webhook endpoints: the list (URLs as scheme, host and port; never a secret), and the operator's add, disable, enable and
/// rotate-secret, subscribe and unsubscribe (outcome event types, docs/outcome-events.md) through <see cref="WebhookOperations"/>,
/// as <c>admin webhooks</c> runs them. A new secret is shown once: in the
/// answer to the POST that made it (not stored for a redirect, not cached, not logged); the page read again never has it.
/// </summary>
internal sealed class IndexModel(AdminContext admin, IAuthorizationService authorization, ILogger<IndexModel> logger)
    : ConsolePageModel(authorization, logger)
{
    public IReadOnlyList<WebhookEndpoint> Endpoints { get; private set; } = [];

    /// <summary>Each endpoint's subscribed outcome event types.</summary>
    public ILookup<string, string> Subscriptions { get; private set; } = Array.Empty<string>().ToLookup(type => type);

    /// <summary>The secret just made, its endpoint's name with it; only in the answer to its POST.</summary>
    public (string Endpoint, string Secret)? Secret { get; private set; }

    public Task OnGetAsync(CancellationToken cancellationToken) => LoadAsync(cancellationToken);

    public Task<IActionResult> OnPostAddAsync(string? name, string? url, bool allowPrivate, CancellationToken cancellationToken) =>
        ShowSecretAsync("webhooks add", name, () => WebhookOperations.AddAsync(admin, name ?? "", url ?? "", allowPrivate, cancellationToken), cancellationToken);

    public Task<IActionResult> OnPostRotateAsync(string? name, string? overlap, CancellationToken cancellationToken) =>
        AdminDurations.TryParse(overlap ?? "24h", out var keep)
            ? ShowSecretAsync("webhooks rotate-secret", name, () => WebhookOperations.RotateSecretAsync(admin, name ?? "", keep, cancellationToken), cancellationToken)
            : SayAsync("webhooks rotate-secret", () => throw new AdminException($"overlap must be a duration such as 24h, 30m, 90s or 0, not '{overlap}'", ExitCodes.Usage));

    public Task<IActionResult> OnPostDisableAsync(string? name, string? reason, CancellationToken cancellationToken) =>
        SayAsync("webhooks disable", () => WebhookOperations.DisableAsync(
            admin, name ?? "", string.IsNullOrWhiteSpace(reason) ? $"disabled by {UserName} (console)" : $"{reason.Trim()} (by {UserName}, console)", cancellationToken));

    public Task<IActionResult> OnPostEnableAsync(string? name, CancellationToken cancellationToken) =>
        SayAsync("webhooks enable", () => WebhookOperations.EnableAsync(admin, name ?? "", cancellationToken));

    public Task<IActionResult> OnPostSubscribeAsync(string? name, string? type, CancellationToken cancellationToken) =>
        SayAsync("webhooks subscribe", () => WebhookOperations.SubscribeAsync(admin, name ?? "", type is null ? [] : [type], cancellationToken));

    public Task<IActionResult> OnPostUnsubscribeAsync(string? name, string? type, CancellationToken cancellationToken) =>
        SayAsync("webhooks unsubscribe", () => WebhookOperations.UnsubscribeAsync(admin, name ?? "", type is null ? [] : [type], cancellationToken));

    // Add or rotate: the page rendered in the POST's answer with the secret, never redirected (TempData would put it in a cookie).
    private async Task<IActionResult> ShowSecretAsync(string action, string? name, Func<Task<WebhookOperations.NewSecret>> operation, CancellationToken cancellationToken)
    {
        ViewData["Outcome"] = await ActAsync(action, async () =>
        {
            var made = await operation();
            Secret = (name ?? "", made.Secret);
            return made.Message;
        });
        Response.Headers.CacheControl = "no-store";
        await LoadAsync(cancellationToken);
        return Page();
    }

    private async Task<IActionResult> SayAsync(string action, Func<Task<string>> operation)
    {
        Notice = await ActAsync(action, operation);
        return RedirectToPage();
    }

    private async Task LoadAsync(CancellationToken cancellationToken)
    {
        await ReadRoleAsync();
        Endpoints = await ReadAsync(() => admin.DatabaseAsync(() => admin.WebhookEndpoints.ListAsync(cancellationToken)), []);
        Subscriptions = await ReadAsync(() => WebhookOperations.SubscriptionsAsync(admin, cancellationToken), Subscriptions);
    }
}
