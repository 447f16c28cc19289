using System.Text.Json;

namespace Notifications.IntegrationTests.Infrastructure.Receivers;

/// <summary>
/// FCM HTTP v1 error bodies as Google writes them: <c>{"error":{"code","message","status","details":[{"@type":
/// "type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode"}]}}</c>.
/// </summary>
internal static class FcmErrors
{
    private const string FcmErrorType = "type.googleapis.com/google.firebase.fcm.v1.FcmError";

    public static PushVerdict Unauthenticated() => Verdict(401, "UNAUTHENTICATED",
        "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.",
        errorCode: null);

    public static PushVerdict PermissionDenied(string project) => Verdict(403, "PERMISSION_DENIED",
        $"Permission 'cloudmessaging.messages.create' denied on resource '//cloudresourcemanager.googleapis.com/projects/{project}'",
        "SENDER_ID_MISMATCH");

    public static PushVerdict InvalidArgument(string message) => Verdict(400, "INVALID_ARGUMENT", message, "INVALID_ARGUMENT");

    public static PushVerdict Unregistered() => Verdict(404, "NOT_FOUND", "Requested entity was not found.", "UNREGISTERED");

    /// <summary>The body FCM sends with a status a test scripted (429 quota, 500 internal, 503 unavailable, ...).</summary>
    public static PushVerdict ForStatus(int status) => status switch
    {
        400 => InvalidArgument("Request contains an invalid argument."),
        401 => Unauthenticated(),
        404 => Unregistered(),
        429 => Verdict(429, "RESOURCE_EXHAUSTED", "Quota exceeded for quota metric 'Send requests'.", "QUOTA_EXCEEDED"),
        500 => Verdict(500, "INTERNAL", "Internal error encountered.", "INTERNAL"),
        503 => Verdict(503, "UNAVAILABLE", "The service is currently unavailable.", "UNAVAILABLE"),
        _ => Verdict(status, "UNKNOWN", $"Scripted status {status}.", errorCode: null),
    };

    public static PushVerdict Verdict(int code, string status, string message, string? errorCode)
    {
        object error = errorCode is null
            ? new { code, message, status }
            : new { code, message, status, details = new[] { new Dictionary<string, string> { ["@type"] = FcmErrorType, ["errorCode"] = errorCode } } };
        return new PushVerdict(code, errorCode ?? status, JsonSerializer.Serialize(new { error }));
    }
}
