#!/usr/bin/env node
// compose.yaml's `minio-bucket`: creates the bucket Imprest stores files in (S3_BUCKET) when it is
// missing, then exits. Runs in the Imprest image, whose @aws-sdk/client-s3 it borrows.
import { CreateBucketCommand, HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';

const bucket = process.env.S3_BUCKET;
if (!bucket) throw new Error('S3_BUCKET is not set');
const client = new S3Client({
  endpoint: process.env.S3_ENDPOINT,
  region: process.env.S3_REGION ?? 'us-east-1',
  forcePathStyle: true,
  credentials: {
    accessKeyId: process.env.S3_ACCESS_KEY_ID ?? '',
    secretAccessKey: process.env.S3_SECRET_ACCESS_KEY ?? '',
  },
});

// MinIO may still be starting: try for a minute.
for (let attempt = 1; ; attempt += 1) {
  try {
    await client.send(new HeadBucketCommand({ Bucket: bucket }));
    console.log(`bucket ${bucket} exists`);
    break;
  } catch (error) {
    const status = error?.$metadata?.httpStatusCode;
    if (status === 404) {
      await client.send(new CreateBucketCommand({ Bucket: bucket }));
      console.log(`bucket ${bucket} created`);
      break;
    }
    if (attempt === 30) throw error;
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}
