namespace Notifications.Admin.Operations;

/// <summary>
/// What a move does around the queue: <see cref="BeforePublishAsync"/> for each batch about to be requeued (releasing
/// at-most-once marks), <see cref="MovedAsync"/> after each batch is acked (its rows, progress; also with an empty batch
/// every <see cref="DeadLetterMover.ProgressEvery"/> letters looked at). MovedAsync returning false stops the move.
/// </summary>
internal sealed record DeadLetterMoveHooks(
    Func<IReadOnlyList<DeadLetter>, Task> BeforePublishAsync,
    Func<IReadOnlyList<DeadLetter>, int, Task<bool>> MovedAsync);
