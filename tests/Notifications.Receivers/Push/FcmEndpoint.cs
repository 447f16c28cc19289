using System.Text.Json;
using Microsoft.AspNetCore.Http;

namespace Notifications.IntegrationTests.Infrastructure.Receivers;

/// <summary>
/// FCM HTTP v1 <c>POST /v1/projects/{project}/messages:send</c>: a bearer token issued by <see cref="FcmTokenEndpoint"/>
/// (else 401 UNAUTHENTICATED), the trusted project (else 403), the body checked by <see cref="FcmMessageValidator"/>, a
/// token the test marked unregistered answered 404 UNREGISTERED; success is 200 <c>{"name":"projects/p/messages/id"}</c>.
/// </summary>
internal sealed class FcmEndpoint(PushTrust trust, FcmTokenEndpoint tokens, PushLog log, AnswerScript script)
{
    public async Task HandleAsync(HttpContext context, ReceiverHost host, string project, string action)
    {
        if (action != "messages:send")
        {
            context.Response.StatusCode = StatusCodes.Status404NotFound;
            return;
        }

        var arrived = DateTimeOffset.UtcNow;
        byte[] body = await PushLog.ReadBodyAsync(context.Request, context.RequestAborted);
        var (check, verdict) = Judge(context.Request, project, body);
        var scripted = script.Take();
        int? answered = scripted switch { null => verdict.Status, { Hang: true } => null, _ => (int)scripted.Status };
        log.Record(new PushRequest("fcm", check?.Token, check?.NotificationId, context.Request.Protocol,
            PushLog.HeadersOf(context.Request), body, verdict, answered, arrived));

        if (scripted is not null)
        {
            await host.WriteScriptedAsync(context, scripted, FcmErrors.ForStatus((int)scripted.Status).Body, "application/json");
            return;
        }

        context.Response.StatusCode = verdict.Status;
        context.Response.ContentType = "application/json; charset=UTF-8";
        await context.Response.WriteAsync(verdict.Body, context.RequestAborted);
    }

    private (FcmMessageCheck? Check, PushVerdict Verdict) Judge(HttpRequest request, string project, byte[] body)
    {
        string authorization = request.Headers.Authorization.ToString();
        if (!authorization.StartsWith("Bearer ", StringComparison.Ordinal) || !tokens.IsValid(authorization["Bearer ".Length..]))
        {
            return (null, FcmErrors.Unauthenticated());
        }

        if (project != trust.ProjectId)
        {
            return (null, FcmErrors.PermissionDenied(project));
        }

        var check = FcmMessageValidator.Check(body);
        if (check.Refusal is not null)
        {
            return (check, check.Refusal);
        }

        if (log.IsUnregistered(check.Token!))
        {
            return (check, FcmErrors.Unregistered());
        }

        string name = $"projects/{project}/messages/0:{Guid.NewGuid():N}";
        return (check, new PushVerdict(200, "accepted", JsonSerializer.Serialize(new { name })));
    }
}
