 #!/bin/bash
#SBATCH -J one --array=1-4 --dependency=afterok:12?after:13?aftercorr:14
#SBATCH --mail-type=BEGIN,END,ARRAY_TASKS --exclusive --no-requeue
echo
