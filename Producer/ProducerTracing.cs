using System.Diagnostics;
using Microsoft.Extensions.Logging;
using Notifications.Shared.Data;

namespace Notifications.Producer;

/// <summary>
/// The producer's spans (source <c>Notifications.Producer</c>): one per published batch, and under it (or
/// under the row's stored traceparent) one per notification, the parent of RabbitMQ.Client's publish span.
/// Without a listener — no tracer provider, or one that does not sample — nothing is created or parsed.
/// </summary>
internal sealed class ProducerTracing(ILogger<ProducerTracing> logger)
{
    public const string SourceName = "Notifications.Producer";
    private static readonly ActivitySource Source = new(SourceName);
    private int _invalidLogged;

    /// <summary>The batch's span, started back at <paramref name="claimStarted"/> (empty polls make none).</summary>
    public static Activity? StartBatch(DateTimeOffset claimStarted, int rows)
    {
        var activity = Source.StartActivity("publish batch", ActivityKind.Internal, parentContext: default, startTime: claimStarted);
        activity?.SetTag("notifications.batch.size", rows);
        return activity;
    }

    /// <summary>
    /// The notification's publish span, current until the caller restores <paramref name="batch"/>: a child of
    /// the row's traceparent (linked to the batch) if it has a valid one, else of the batch.
    /// </summary>
    public Activity? StartPublish(OutboxRow row, Activity? batch)
    {
        if (!Source.HasListeners())
        {
            return null;
        }

        var parent = ParentOf(row);
        var activity = parent == default
            ? Source.StartActivity("publish notification", ActivityKind.Internal)
            : Source.StartActivity("publish notification", ActivityKind.Internal, parent,
                links: batch is null ? null : [new ActivityLink(batch.Context)]);
        activity?.SetTag("notifications.id", row.Id);
        return activity;
    }

    /// <summary>Ends <paramref name="activity"/> when <paramref name="publish"/> (its broker confirm) completes.</summary>
    public static async Task EndWithAsync(Activity activity, Task publish)
    {
        try
        {
            await publish;
        }
        catch (Exception ex)
        {
            activity.SetStatus(ActivityStatusCode.Error, ex.Message);
            throw;
        }
        finally
        {
            activity.Dispose();
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
