using System.Diagnostics;
using Microsoft.Extensions.Logging;
using Notifications.Shared.Data;
using Notifications.Shared.Messaging;

namespace Notifications.Producer;

/// <summary>
/// The producer's spans (source <c>Notifications.Producer</c>): one per published batch, and under it (or
/// under the row's stored traceparent) one per notification, whose context travels in the message to the
/// consumer's span. Without a listener (no tracer provider) nothing is created or parsed.
/// </summary>
internal sealed class ProducerTracing(ILogger<ProducerTracing> logger)
{
    public const string SourceName = "Notifications.Producer";
    private static readonly ActivitySource Source = new(SourceName);
    private int _invalidLogged;

    /// <summary>Whether anything listens (a tracer provider is registered): only then are spans made.</summary>
    public static bool Enabled => Source.HasListeners();

    /// <summary>The batch's span, started back at <paramref name="claimStarted"/> (empty polls make none).</summary>
    public static Activity? StartBatch(DateTimeOffset claimStarted, int rows)
    {
        var activity = Source.StartActivity("publish batch", ActivityKind.Internal, parentContext: default, startTime: claimStarted);
        activity?.SetTag("notifications.batch.size", rows);
        return activity;
    }

    /// <summary>
    /// The notification's publish span (kind Producer), current until the caller restores <paramref name="batch"/>:
    /// a child of the row's traceparent (linked to the batch) if it has a valid one, else of the batch. The
    /// caller puts its context in the message (<see cref="TraceContextHeader"/>) and ends it with the batch's
    /// confirms (<see cref="EndPublishes"/>).
    /// </summary>
    public Activity? StartPublish(OutboxRow row, Activity? batch)
    {
        if (!Enabled)
        {
            return null;
        }

        var parent = ParentOf(row);
        var activity = parent == default
            ? Source.StartActivity("publish notification", ActivityKind.Producer)
            : Source.StartActivity("publish notification", ActivityKind.Producer, parent,
                links: batch is null ? null : [new ActivityLink(batch.Context)]);
        if (activity is { IsAllDataRequested: true })
        {
            activity.SetTag("notifications.id", row.Id);
        }

        return activity;
    }

    /// <summary>
    /// Ends a batch's publish spans once the batch's confirms are all in, or it failed: one pass over the
    /// batch rather than a continuation per message. A publish that failed or had no confirm yet is an error.
    /// </summary>
    public static void EndPublishes(List<(Activity Span, Task Confirm)> publishes)
    {
        foreach (var (span, confirm) in publishes)
        {
            if (!confirm.IsCompletedSuccessfully)
            {
                span.SetStatus(ActivityStatusCode.Error, confirm.Exception?.InnerException?.Message ?? "not confirmed when the batch ended");
            }

            span.Dispose();
        }
    }

    private ActivityContext ParentOf(OutboxRow row)
    {
        if (row.TraceParent is not { } traceParent)
        {
            return default;
        }

        if (ActivityContext.TryParse(traceParent, null, isRemote: true, out var parent))
        {
            return parent;
        }

        // Written by any app: a bad value costs the row its trace, never its delivery. Logged once per process.
        if (Interlocked.Exchange(ref _invalidLogged, 1) == 0)
        {
            ProducerLog.InvalidTraceParent(logger, row.Id, traceParent);
        }

        return default;
    }
}
