package dev.tributary.lake.iceberg;

import dev.tributary.lake.api.io.ObjectStoreRequest;
import dev.tributary.lake.api.io.ObjectStoreRequests;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectsRequest;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.ListObjectsRequest;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Request;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;

/**
 * Counts every HTTP attempt the AWS SDK v2 sends to S3 (Iceberg's S3FileIO) in {@link
 * ObjectStoreRequests#global()}, by request kind and against the object's bucket and key (T47).
 * Retries count: the attempt hooks ({@link #beforeTransmission}, {@link #afterTransmission}) run
 * once per attempt, so a request throttled twice counts three times.
 *
 * <p>Registered as an SDK global interceptor ({@code
 * software/amazon/awssdk/global/handlers/execution.interceptors}) rather than through Iceberg's
 * client factory: S3FileIO builds its client through whichever {@code client.factory} the catalog
 * configures (the default, an assume-role factory, a REST catalog's vended credentials), and a
 * user's factory would replace one that added the hook. The global list reaches every S3 client the
 * SDK builds in the process; requests that are not S3 object requests are ignored, and those on
 * keys of no opened table are counted as {@link ObjectStoreRequests#OTHER}.
 */
public final class S3RequestCounter implements ExecutionInterceptor {
    private static final ExecutionAttribute<Target> TARGET =
            new ExecutionAttribute<>("tributary.s3.target");

    private final ObjectStoreRequests requests;

    /** The instance the SDK creates from the global interceptor list. */
    public S3RequestCounter() {
        this(ObjectStoreRequests.global());
    }

    S3RequestCounter(ObjectStoreRequests requests) {
        this.requests = requests;
    }

    @Override
    public void beforeTransmission(
            Context.BeforeTransmission context, ExecutionAttributes attributes) {
        Target t = classify(context.request());
        if (t == null) {
            return;
        }
        attributes.putAttribute(TARGET, t);
        long up =
                context.requestBody()
                        .flatMap(b -> b.optionalContentLength())
                        .orElseGet(() -> decodedLength(context.httpRequest()));
        requests.record(t.bucket, t.key, t.kind, up, 0);
    }

    @Override
    public void afterTransmission(
            Context.AfterTransmission context, ExecutionAttributes attributes) {
        Target t = attributes.getAttribute(TARGET);
        if (t == null) {
            return;
        }
        long down =
                context.httpResponse()
                        .firstMatchingHeader("Content-Length")
                        .map(S3RequestCounter::parse)
                        .orElse(0L);
        requests.recordBytes(t.bucket, t.key, 0, down);
    }

    private static long decodedLength(SdkHttpRequest http) {
        Optional<String> decoded = http.firstMatchingHeader("x-amz-decoded-content-length");
        return decoded.or(() -> http.firstMatchingHeader("Content-Length"))
                .map(S3RequestCounter::parse)
                .orElse(0L);
    }

    private static long parse(String v) {
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** The kind and object of an S3 request; null for requests that are not S3's. */
    static Target classify(SdkRequest request) {
        if (!(request instanceof S3Request)) {
            return null;
        }
        if (request instanceof PutObjectRequest r) {
            return new Target(ObjectStoreRequest.PUT, r.bucket(), r.key());
        } else if (request instanceof GetObjectRequest r) {
            return new Target(ObjectStoreRequest.GET, r.bucket(), r.key());
        } else if (request instanceof HeadObjectRequest r) {
            return new Target(ObjectStoreRequest.HEAD, r.bucket(), r.key());
        } else if (request instanceof ListObjectsV2Request r) {
            return new Target(ObjectStoreRequest.LIST, r.bucket(), r.prefix());
        } else if (request instanceof ListObjectsRequest r) {
            return new Target(ObjectStoreRequest.LIST, r.bucket(), r.prefix());
        } else if (request instanceof DeleteObjectRequest r) {
            return new Target(ObjectStoreRequest.DELETE, r.bucket(), r.key());
        } else if (request instanceof DeleteObjectsRequest r) {
            // one request deletes a batch; Iceberg batches the files of one table
            List<ObjectIdentifier> objects = r.delete() == null ? List.of() : r.delete().objects();
            return new Target(
                    ObjectStoreRequest.DELETE,
                    r.bucket(),
                    objects.isEmpty() ? "" : objects.get(0).key());
        } else if (request instanceof CopyObjectRequest r) {
            return new Target(ObjectStoreRequest.COPY, r.destinationBucket(), r.destinationKey());
        } else if (request instanceof CreateMultipartUploadRequest r) {
            return new Target(ObjectStoreRequest.MULTIPART_CREATE, r.bucket(), r.key());
        } else if (request instanceof UploadPartRequest r) {
            return new Target(ObjectStoreRequest.MULTIPART_PART, r.bucket(), r.key());
        } else if (request instanceof CompleteMultipartUploadRequest r) {
            return new Target(ObjectStoreRequest.MULTIPART_COMPLETE, r.bucket(), r.key());
        } else if (request instanceof AbortMultipartUploadRequest r) {
            return new Target(ObjectStoreRequest.MULTIPART_ABORT, r.bucket(), r.key());
        }
        return request.getValueForField("Bucket", String.class)
                .map(
                        b ->
                                new Target(
                                        ObjectStoreRequest.OTHER,
                                        b,
                                        request.getValueForField("Key", String.class).orElse("")))
                .orElse(null);
    }

    record Target(ObjectStoreRequest kind, String bucket, String key) {
        Target {
            key = key == null ? "" : key;
        }
    }
}
