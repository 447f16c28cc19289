using System.Collections.Concurrent;
using System.Threading.Channels;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Notifications.Shared.Data;
using Notifications.Shared.Data.FanOut;
using Notifications.Shared.Hosting;
using Notifications.Shared.Observability;
using RabbitMQ.Client;

namespace Notifications.Producer.FanOut;

/// <summary>
/// Audience rows of one page (a subscriber) fanned out by the claim that took them (<see cref="FanOutOptions.InClaim"/>;
/// docs/fan-out.md). The job's page is written in the claim's transaction, so its delivery ids are committed with the claim;
/// after the commit the claiming lane publishes the deliveries and goes on to its next claim, while their confirms come in
/// and the jobs end behind it (<see cref="RunEndingsAsync"/>: the jobs whose deliveries the broker confirmed meanwhile end in
/// one transaction). That is the stage's lease and page transactions and its wake saved, and the confirms' wait and the
/// jobs' commit are off the lane's path. A claimer that dies before its jobs ended leaves them leased: when the lease runs
/// out the stage resumes each at its page, under the same ids, as it does a killed producer's topic.
/// </summary>
internal sealed class InClaimFanOut(
    IFanOutStore store, IOptions<FanOutOptions> options, IOptions<ProducerOptions> producerOptions, FaultInjector faults, ILogger<InClaimFanOut> logger)
{
    private readonly FanOutOptions _options = options.Value;
    private readonly ProducerOptions _producer = producerOptions.Value;
    private readonly string _owner = LeaseOwner.New("claim");
    private readonly Channel<PublishedPages> _published = Channel.CreateUnbounded<PublishedPages>(new UnboundedChannelOptions { SingleReader = true });
    private readonly ConcurrentDictionary<Task, bool> _unconfirmed = new();

    /// <summary>
    /// In the claim's transaction, after its jobs were written: leases the subscribers' jobs (at most
    /// <see cref="FanOutOptions.InClaim"/>) and writes each one's page. The jobs taken, with their pages (a
    /// <see cref="FanOutPage.Finished"/> one ended there: no such subscriber); the others are the stage's.
    /// </summary>
    public async Task<List<(FanOutJob Job, FanOutPage Page)>> WriteAsync(
        OutboxClaim claim, IReadOnlyList<FanOutJob> jobs, CancellationToken cancellationToken)
    {
        var taken = new List<(FanOutJob Job, FanOutPage Page)>();
        foreach (var job in jobs.Where(j => j.IsSubscriber).Take(_options.InClaim))
        {
            if (await store.WritePageInClaimAsync(claim, job, _owner, _options.LeaseTime, _options.PageSize, cancellationToken) is { } page)
            {
                taken.Add((job, page));
            }
        }

        return taken;
    }

    /// <summary>
    /// After the claim committed: publishes the pages of <paramref name="taken"/> on <paramref name="channel"/> with confirms
    /// and hands them to <see cref="RunEndingsAsync"/>, which waits for the confirms (bounded by the publish timeout, not by
    /// shutdown: a page begun is finished). A failure is logged, not thrown: the claim is committed, and the stage resumes the
    /// jobs when their lease runs out.
    /// </summary>
    public void Publish(BatchPublisher publisher, IChannel channel, List<(FanOutJob Job, FanOutPage Page)> taken)
    {
        var pages = taken.Where(t => !t.Page.Finished).ToList();
        if (pages.Count == 0)
        {
            return;
        }

        faults.Reached("after-claim-fan-out");
        var timeout = new CancellationTokenSource(_producer.PublishTimeout);
        try
        {
            var rows = pages.SelectMany(p => FanOutDeliveries.Rows(p.Job, p.Page.Deliveries).Select(row => (p.Job, Row: row))).ToList();
            var confirmed = publisher.PublishAsync(channel, rows.ConvertAll(r => r.Row), batch: null, timeout.Token);
            _unconfirmed.TryAdd(confirmed, true);
            _published.Writer.TryWrite(new PublishedPages(pages, rows, confirmed, timeout));
        }
        catch (Exception ex)
        {
            timeout.Dispose();
            LogFailed(ex);
        }
    }

    /// <summary>
    /// Waits until every page published so far is confirmed or has failed: a lane calls it before it closes its channel, whose
    /// confirms would otherwise be lost with it.
    /// </summary>
    public Task ConfirmedAsync() => Task.WhenAll(_unconfirmed.Keys).ContinueWith(static _ => { }, TaskScheduler.Default);

    /// <summary>
    /// Ends the jobs whose pages the broker confirmed, all that are waiting in one transaction, until <see cref="CompleteEndings"/>
    /// and the last of them are ended. Not cancelled by shutdown: a confirmed page's job is ended (each transaction bounded by
    /// the publish timeout); one that could not be is resumed by the stage when its lease runs out.
    /// </summary>
    public async Task RunEndingsAsync()
    {
        var reader = _published.Reader;
        while (await reader.WaitToReadAsync())
        {
            // What is there now, not what comes while its confirms are awaited: a steady flow must not put the ending off.
            var waiting = new List<PublishedPages>();
            while (reader.TryRead(out var published))
            {
                waiting.Add(published);
            }

            var pages = new List<(FanOutJob Job, FanOutPage Page)>();
            foreach (var published in waiting)
            {
                if (await WasConfirmedAsync(published))
                {
                    pages.AddRange(published.Pages);
                }
            }

            if (pages.Count > 0)
            {
                await EndAsync(pages);
            }
        }
    }

    /// <summary>No more pages come (the lanes stopped): <see cref="RunEndingsAsync"/> ends what is left and returns.</summary>
    public void CompleteEndings() => _published.Writer.TryComplete();

    // The page's confirms, its rejected deliveries logged; false (logged) when the publish failed or timed out.
    private async Task<bool> WasConfirmedAsync(PublishedPages published)
    {
        try
        {
            foreach (var (row, reason) in await published.Confirmed)
            {
                FanOutLog.DeliveryRejected(logger, published.Rows.First(r => r.Row.Id == row.Id).Job.Id, row.Id, reason);
            }

            return true;
        }
        catch (Exception ex)
        {
            LogFailed(ex);
            return false;
        }
        finally
        {
            _unconfirmed.TryRemove(published.Confirmed, out _);
            published.Timeout.Dispose();
        }
    }

    private async Task EndAsync(List<(FanOutJob Job, FanOutPage Page)> pages)
    {
        try
        {
            using var timeout = new CancellationTokenSource(_producer.PublishTimeout);
            var advanced = await store.AdvanceAsync(pages, _owner, _options.LeaseTime, timeout.Token);
            for (int i = 0; i < pages.Count; i++)
            {
                LogEnd(pages[i], advanced[i]);
            }
        }
        catch (Exception ex)
        {
            LogFailed(ex);
        }
    }

    private void LogFailed(Exception ex)
    {
        if (ConnectionFailure.IsExpected(ex))
        {
            FanOutLog.PageFailedUnreachable(logger, ConnectionFailure.Describe(ex), _options.LeaseTime);
        }
        else
        {
            FanOutLog.PageFailed(logger, _options.LeaseTime, ex);
        }
    }

    private void LogEnd((FanOutJob Job, FanOutPage Page) page, bool advanced)
    {
        if (advanced)
        {
            FanOutLog.EndedInClaim(logger, page.Job.Id, page.Page.Deliveries.Count);
        }
        else
        {
            FanOutLog.LeaseLost(logger, page.Job.Id);
        }
    }

    // A claim's pages as the lane published them: their rows (to name a rejected delivery's job) and the confirms to wait for.
    private sealed record PublishedPages(
        List<(FanOutJob Job, FanOutPage Page)> Pages, List<(FanOutJob Job, OutboxRow Row)> Rows,
        Task<List<(OutboxRow Row, string Reason)>> Confirmed, CancellationTokenSource Timeout);
}
