 #!/bin/bash
#SBATCH --dependency=singleton,after:7,aftercorr:8 -a 1-2
#BSUB -w "done(1) || started(2)"
echo
