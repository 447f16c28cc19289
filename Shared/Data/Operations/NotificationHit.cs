namespace Notifications.Shared.Data.Operations;

/// <summary>A notification a search found, and where: <c>outbox</c> (waiting), <c>fan-out</c> (an audience row's job), <c>delivery</c> (a fan-out delivery), <c>key</c> (an idempotency key), <c>id</c>.</summary>
public sealed record NotificationHit(long NotificationId, string Source);
