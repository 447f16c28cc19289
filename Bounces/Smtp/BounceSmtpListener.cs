using System.Net;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Notifications.Shared.Bounces;
using Notifications.Shared.Observability;
using SmtpServer;
using SmtpServer.Net;
using SmtpServer.Protocol;

namespace Notifications.Bounces.Smtp;

/// <summary>
/// The inbound SMTP listener (SmtpServer) on <see cref="BounceReceiverOptions.Address"/>:<see cref="BounceReceiverOptions.Port"/>,
/// STARTTLS when a certificate is configured, the size limit advertised (SIZE) and enforced. Start returns once the port is
/// bound; a port it cannot bind stops the process (taking reports is all it is for). A session's failure ends that
/// session only (logged), never the listener.
/// </summary>
internal sealed class BounceSmtpListener(
    BounceMailboxFilter filter, BounceMessageStore store, BounceMetrics metrics, IOptions<BounceReceiverOptions> options, IOptions<ReturnPathOptions> returnPath,
    ILogger<BounceSmtpListener> logger) : IHostedService
{
    private readonly TaskCompletionSource<IPEndPoint> _bound = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly CancellationTokenSource _stopping = new();
    private SmtpServer.SmtpServer? _server;
    private Task? _running;

    /// <summary>The bound address and port (a port of 0 resolved), once listening.</summary>
    public Task<IPEndPoint> Bound => _bound.Task;

    public async Task StartAsync(CancellationToken cancellationToken)
    {
        var o = options.Value;
        var endpoint = new EndpointDefinitionBuilder()
            .Endpoint(new IPEndPoint(IPAddress.Parse(o.Address), o.Port))
            .SessionTimeout(o.SessionTimeout);
        if (o.StartTls)
        {
            endpoint.Certificate(PublicServerListen.Load(o.Certificate!, o.CertificateKey!));
        }

        var smtpOptions = new SmtpServerOptionsBuilder()
            .ServerName(o.ServerName)
            .Endpoint(endpoint.Build())
            .MaxMessageSize(o.MaxMessageBytes, MaxMessageSizeHandling.Strict)
            .Build();
        var listeners = new EndpointListenerFactory();
        listeners.EndpointStarted += (_, e) => _bound.TrySetResult((IPEndPoint)e.LocalEndPoint);
        var services = new SmtpServer.ComponentModel.ServiceProvider();
        services.Add(listeners);
        services.Add(filter);
        services.Add(store);
        _server = new SmtpServer.SmtpServer(smtpOptions, services);
        _server.SessionFaulted += (_, e) => BounceLog.SessionFaulted(logger, SmtpReplies.Remote(e.Context), e.Exception);
        _server.SessionCreated += (_, e) => e.Context.ResponseException += (_, r) => Refused(e.Context, r.Exception);
        _running = _server.StartAsync(_stopping.Token);

        // Either the port is bound, or the listener failed to bind it.
        var first = await Task.WhenAny(_bound.Task, _running).WaitAsync(cancellationToken);
        if (first == _running)
        {
            var failure = _running.Exception?.GetBaseException() ?? new InvalidOperationException("the SMTP listener stopped before it was listening");
            BounceLog.ListenFailed(logger, o.Address, o.Port, failure);
            throw failure;
        }

        BounceLog.Listening(logger, returnPath.Value.Domain, (await _bound.Task).ToString(), o.StartTls, o.MaxMessageBytes);
    }

    // Every 552 the session answers, the filter's (a declared SIZE) and SmtpServer's own (DATA past the limit): one log line and count each.
    private void Refused(ISessionContext context, SmtpResponseException refusal)
    {
        if (refusal.Response.ReplyCode == SmtpReplyCode.SizeLimitExceeded)
        {
            BounceLog.TooLarge(logger, options.Value.MaxMessageBytes, SmtpReplies.Remote(context));
            metrics.Message("too_large");
        }
    }

    public async Task StopAsync(CancellationToken cancellationToken)
    {
        if (_server is null)
        {
            return;
        }

        // Shutdown stops accepting and lets the sessions under way finish; the token ends what remains.
        _server.Shutdown();
        try
        {
            await _server.ShutdownTask.WaitAsync(cancellationToken);
        }
        finally
        {
            await _stopping.CancelAsync();
            _stopping.Dispose();
        }
    }
}
